/**
 * @file The .tool interface language (toolidl): the grammar of idl/src/tool.pest.
 * @license MIT OR Apache-2.0
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/;

/** Items separated by commas, a trailing comma allowed, none at all allowed. */
function commaSep(rule) {
  return optional(seq(rule, repeat(seq(',', rule)), optional(',')));
}

module.exports = grammar({
  name: 'toolidl',

  extras: $ => [/\s/, $.comment, $.doc_comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => seq(
      optional($.package_declaration),
      repeat($.import_declaration),
      repeat($._item),
    ),

    // `///` documents the next declaration; `////` is an ordinary comment again.
    doc_comment: _ => token(prec(1, seq('///', /([^/\n][^\n]*)?/))),
    comment: _ => token(prec(2, choice(
      seq('//', /([^/\n][^\n]*)?/),
      seq('////', /[^\n]*/),
    ))),

    identifier: _ => IDENT,
    path: $ => seq($.identifier, repeat(seq('.', $.identifier))),

    package_declaration: $ => seq(
      repeat($.attribute),
      'package',
      field('name', $.path),
      ';',
    ),

    import_declaration: $ => seq(
      repeat($.attribute),
      'import',
      field('path', $.string),
      ';',
    ),

    attribute: $ => seq(
      field('name', $.attribute_name),
      optional($.attribute_arguments),
    ),
    attribute_name: _ => token(seq('@', IDENT)),
    attribute_arguments: $ => seq('(', commaSep($.attribute_argument), ')'),
    attribute_argument: $ => seq(
      optional(seq(field('name', $.identifier), ':')),
      field('value', $._literal),
    ),

    _item: $ => choice(
      $.enum_declaration,
      $.record_declaration,
      $.union_declaration,
      $.type_declaration,
      $.service_declaration,
    ),

    enum_declaration: $ => seq(
      repeat($.attribute),
      'enum',
      field('name', $.identifier),
      '{',
      commaSep($.enum_member),
      '}',
    ),
    enum_member: $ => seq(repeat($.attribute), field('name', $.identifier)),

    record_declaration: $ => seq(
      repeat($.attribute),
      'record',
      field('name', $.identifier),
      '{',
      commaSep($.field),
      '}',
    ),

    // A record field or a parameter: `@range(1, 14) days?: u8 = 3`.
    field: $ => seq(
      repeat($.attribute),
      field('name', $.identifier),
      optional(field('optional', $.optional_marker)),
      ':',
      field('type', $.type),
      optional(seq('=', field('default', $._literal))),
    ),
    optional_marker: _ => '?',

    union_declaration: $ => seq(
      repeat($.attribute),
      'union',
      field('name', $.identifier),
      '{',
      commaSep($.union_variant),
      '}',
    ),
    union_variant: $ => seq(
      repeat($.attribute),
      field('name', $.identifier),
      ':',
      field('type', $.type),
    ),

    // `type PageSize = @range(1, 100) u8;`
    type_declaration: $ => seq(
      repeat($.attribute),
      'type',
      field('name', $.identifier),
      '=',
      repeat($.attribute),
      field('type', $.type),
      ';',
    ),

    service_declaration: $ => seq(
      repeat($.attribute),
      'service',
      field('name', $.identifier),
      '{',
      repeat($.member_declaration),
      '}',
    ),

    // `tool name(params) -> T;`, `resource …`, `prompt …`.
    member_declaration: $ => seq(
      repeat($.attribute),
      field('kind', choice('tool', 'resource', 'prompt')),
      field('name', $.identifier),
      field('parameters', $.parameters),
      optional(seq('->', field('returns', $.type))),
      ';',
    ),
    parameters: $ => seq('(', commaSep(choice($.field, $.spread)), ')'),
    // `..RepoRef`: the record's fields, spread as parameters.
    spread: $ => seq('..', field('record', $.type_name)),

    // `list<Forecast>?`
    type: $ => seq(
      field('name', $.type_name),
      optional($.type_arguments),
      repeat($.nullable_marker),
    ),
    // `Page` or `acme.common.Page`.
    type_name: $ => seq(
      repeat(seq(field('module', $.identifier), '.')),
      field('name', $.identifier),
    ),
    type_arguments: $ => seq('<', $.type, repeat(seq(',', $.type)), optional(','), '>'),
    nullable_marker: _ => '?',

    _literal: $ => choice(
      $.string,
      $.char,
      $.float,
      $.integer,
      $.boolean,
      $.null,
      $.list,
      $.object,
      $.identifier,
    ),
    string: $ => seq(
      '"',
      repeat(choice(token.immediate(prec(1, /[^"\\\n]+/)), $.escape_sequence)),
      token.immediate('"'),
    ),
    escape_sequence: _ => token.immediate(seq('\\', /./)),
    char: _ => /'([^'\\\n]|\\.)*'/,
    float: _ => /-?\d+(\.\d+([eE][+-]?\d+)?|[eE][+-]?\d+)/,
    integer: _ => /-?\d+/,
    boolean: _ => choice('true', 'false'),
    null: _ => 'null',
    list: $ => seq('[', commaSep($._literal), ']'),
    // `{ x: 1 }` (a record default) or `{"k": "v"}` (a map default).
    object: $ => seq('{', commaSep($.object_entry), '}'),
    object_entry: $ => seq(
      field('key', choice($.string, $.identifier)),
      ':',
      field('value', $._literal),
    ),
  },
});
