// Layout and comments only: no change.
service S { tool ping(a: u8, b: string = "x") -> string; }
