; Highlights for the .tool language, in the capture names Neovim, Helix and Zed share.

(comment) @comment
(doc_comment) @comment.documentation

[
  "package"
  "import"
] @keyword.import

[
  "enum"
  "record"
  "union"
  "type"
  "service"
] @keyword.type

[
  "tool"
  "resource"
  "prompt"
] @keyword.function

(attribute_name) @attribute
(attribute_argument name: (identifier) @variable.parameter)

(package_declaration name: (path (identifier) @module))
(type_name module: (identifier) @module)

(enum_declaration name: (identifier) @type.definition)
(record_declaration name: (identifier) @type.definition)
(union_declaration name: (identifier) @type.definition)
(type_declaration name: (identifier) @type.definition)
(service_declaration name: (identifier) @type.definition)

(member_declaration name: (identifier) @function)
(parameters (field name: (identifier) @variable.parameter))
(record_declaration (field name: (identifier) @property))
(union_variant name: (identifier) @property)
(enum_member name: (identifier) @constant)
(object_entry key: (identifier) @property)

; Exclusive predicates, so that the result does not depend on whether an editor lets the
; first or the last matching pattern win.
((type_name name: (identifier) @type.builtin)
  (#any-of? @type.builtin
    "bool" "i8" "i16" "i32" "i64" "u8" "u16" "u32" "u64" "integer" "f32" "f64" "string" "char"
    "uuid" "datetime" "date" "time" "duration" "uri" "bytes" "json" "object" "array"
    "list" "set" "map" "content" "call_result"))
((type_name name: (identifier) @type)
  (#not-any-of? @type
    "bool" "i8" "i16" "i32" "i64" "u8" "u16" "u32" "u64" "integer" "f32" "f64" "string" "char"
    "uuid" "datetime" "date" "time" "duration" "uri" "bytes" "json" "object" "array"
    "list" "set" "map" "content" "call_result"))

; A bare name as a value is an enum member.
(field default: (identifier) @constant)
(list (identifier) @constant)
(object_entry value: (identifier) @constant)
(attribute_argument value: (identifier) @constant)

(string) @string
(escape_sequence) @string.escape
(char) @character
(integer) @number
(float) @number.float
(boolean) @boolean
(null) @constant.builtin

(optional_marker) @operator
(nullable_marker) @operator
[
  "->"
  ".."
  "="
] @operator

[
  ";"
  ","
  ":"
  "."
] @punctuation.delimiter

[
  "{"
  "}"
  "("
  ")"
  "["
  "]"
  "<"
  ">"
] @punctuation.bracket
