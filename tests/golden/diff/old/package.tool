package acme.v1;

service S {
    tool ping() -> string;
}
