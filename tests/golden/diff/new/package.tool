package acme.v2;

service S {
    tool ping() -> string;
}
