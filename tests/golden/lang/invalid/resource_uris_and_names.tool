// A resource URI is absolute (it starts with a scheme); a resource or prompt @name is not blank.
service S {
 @name("") @uri("x://a") resource r() -> string;
 @name("  ") prompt p() -> string;
 @uri("") resource q() -> string;
 @uri("cities/{name}") resource c(name: string) -> string;
 @uri("1x://a") resource d() -> string;
 @uri("urn:isbn:1") resource e() -> string;
}
