// A `///` after code at the end of a block documents nothing.
service S {
    tool t(); /// trailing
}
