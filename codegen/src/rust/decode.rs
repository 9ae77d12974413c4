//! Argument decoders generated from the model: each type's value read straight from the raw
//! JSON with the runtime's helpers, every constraint the schema advertises checked.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use toolidl::model::{Bounds, Constraints, Field, Number, Primitive, Type};

use super::context::{Context, format_of};
use super::values;
use crate::naming as names;

/// Whether the type's `Decode` impl checks everything its schema says (no string format, no
/// set and no constrained items inside, which need more than the type).
pub fn is_plain(ty: &Type) -> bool {
    match ty {
        Type::Primitive { name } => format_of(*name).is_none(),
        Type::List { item, each } => each.is_empty() && is_plain(item),
        Type::Set { .. } => false,
        Type::Map { value, each } => each.is_empty() && is_plain(value),
        Type::Nullable { inner } => is_plain(inner),
        Type::Named { .. } => true,
    }
}

impl Context<'_> {
    /// [`is_plain`] for this build: a typed format value's `Decode` impl checks its format.
    pub(super) fn plain(&self, ty: &Type) -> bool {
        match ty {
            Type::Primitive { name } => format_of(*name).is_none() || self.is_typed(*name),
            Type::List { item, each } => each.is_empty() && self.plain(item),
            Type::Set { .. } => false,
            Type::Map { value, each } => each.is_empty() && self.plain(value),
            Type::Nullable { inner } => self.plain(inner),
            Type::Named { .. } => true,
        }
    }

    /// Items whose Rust equality is JSON equality: scalars and enum members, and not typed
    /// format values (`08:30:00Z` and `09:30:00+01:00` are one instant but two texts, and
    /// `uniqueItems` compares texts).
    fn scalar(&self, ty: &Type) -> bool {
        match ty {
            Type::Primitive { name } if self.is_typed(*name) => false,
            other => is_scalar(other),
        }
    }

    /// A typed format value (or one that is nullable) with `@pattern`, which judges the text
    /// as sent: the expression that reads the text at `raw`, checked in its format, and the
    /// one that makes the typed value of that `value` (both `Result<_, ArgError>`).
    fn text_first(
        &self,
        ty: &Type,
        c: &Constraints,
        raw: &TokenStream,
        path: &TokenStream,
    ) -> Option<(TokenStream, TokenStream)> {
        c.pattern.as_ref()?;
        let (name, nullable) = match ty {
            Type::Primitive { name } => (*name, false),
            Type::Nullable { inner } => match inner.as_ref() {
                Type::Primitive { name } => (*name, true),
                _ => return None,
            },
            _ => return None,
        };
        if !self.is_typed(name) {
            return None;
        }
        let format = format_of(name);
        Some(if nullable {
            (
                quote!(rt::args::nullable(#raw, #path, |r, path| rt::args::formatted(
                    r, path, #format
                ))),
                quote!(value
                    .as_deref()
                    .map(|text| rt::typed::typed(text, #path))
                    .transpose()),
            )
        } else {
            (
                quote!(rt::args::formatted(#raw, #path, #format)),
                quote!(rt::typed::typed(&value, #path)),
            )
        })
    }

    /// An expression of type `Result<T, ArgError>` that reads the value at `r` (a `&mut Reader`) at `path`
    /// (a `&Path`) as a value of `ty`.
    pub fn decode_expr(
        &self,
        ty: &Type,
        boxed: bool,
        raw: &TokenStream,
        path: &TokenStream,
    ) -> TokenStream {
        if self.plain(ty) {
            let rust = self.rust_type(ty, boxed);
            return quote!(<#rust as rt::Decode>::read(#raw, #path));
        }
        let unconstrained = Constraints::default();
        match ty {
            Type::Primitive { name } => {
                let format = format_of(*name);
                quote!(rt::args::formatted(#raw, #path, #format))
            }
            Type::List { item, each } => {
                let item = self.item_reader(item, each, false);
                quote!(rt::args::list(#raw, #path, #item))
            }
            Type::Map { value, each } => {
                let value = self.item_reader(value, each, false);
                quote!(rt::args::map(#raw, #path, #value))
            }
            Type::Nullable { inner } => {
                let inner = self.item_reader(inner, &unconstrained, boxed);
                quote!(rt::args::nullable(#raw, #path, #inner))
            }
            Type::Set { item, each } => self.decode_set(item, each, raw, path),
            Type::Named { .. } => unreachable_plain(),
        }
    }

    /// A function of `(r, path)` that reads one item of `ty` and checks it against `each`
    /// (the item's constraints; its path is the item's own, `tags[2]`).
    fn item_reader(&self, ty: &Type, each: &Constraints, boxed: bool) -> TokenStream {
        if each.is_empty() {
            if let Some(f) = self.set_fn(ty) {
                return f;
            }
            let e = self.decode_expr(ty, boxed, &quote!(r), &quote!(path));
            return quote!(|r, path| #e);
        }
        let number = quote!(r.last_number());
        let e = self.checked_decode(ty, each, boxed, &quote!(r), &quote!(path), &number);
        quote!(|r, path| #e)
    }

    /// [`Self::decode_expr`] followed by the checks of `c` on the value read at `path` (a
    /// `&Path`): an item's or a union variant's own constraints; `number` is the text of the
    /// number read, for float bounds.
    pub fn checked_decode(
        &self,
        ty: &Type,
        c: &Constraints,
        boxed: bool,
        raw: &TokenStream,
        path: &TokenStream,
        number: &TokenStream,
    ) -> TokenStream {
        if let Some((decode, typed)) = self.text_first(ty, c, raw, path) {
            let checks = self.checks(ty, c, path, number);
            return quote!(#decode.and_then(|value| {
                #checks
                #typed
            }));
        }
        // An f32's @range is checked on the number as sent, before it is rounded.
        let (read_ty, narrow) = widened_f32(ty, c).unwrap_or_else(|| (ty.clone(), quote!(value)));
        let decode = self.decode_expr(&read_ty, boxed, raw, path);
        let checks = self.checks(ty, c, path, number);
        if checks.is_empty() {
            return decode;
        }
        quote!(#decode.and_then(|value| {
            #checks
            Ok(#narrow)
        }))
    }

    /// The runtime function that reads a set of scalars, if `ty` is one.
    fn set_fn(&self, ty: &Type) -> Option<TokenStream> {
        let Type::Set { item, each } = ty else {
            return None;
        };
        if !(self.scalar(item) && self.plain(item) && each.is_empty()) {
            return None;
        }
        let rust = self.rust_type(item, false);
        Some(if is_float(item) {
            quote!(rt::args::set_by_eq::<#rust>)
        } else {
            quote!(rt::args::set::<#rust>)
        })
    }

    /// A set: its items, then `uniqueItems` by the items' own equality where it is the JSON
    /// one (scalars, enums), else by JSON equality of the raw items.
    fn decode_set(
        &self,
        item: &Type,
        each: &Constraints,
        raw: &TokenStream,
        path: &TokenStream,
    ) -> TokenStream {
        if let Some(f) = self.set_fn(&Type::Set {
            item: Box::new(item.clone()),
            each: Box::new(each.clone()),
        }) {
            return quote!(#f(#raw, #path));
        }
        let read = if self.plain(item) && each.is_empty() {
            let rust = self.rust_type(item, false);
            quote!(<#rust as rt::Decode>::read)
        } else {
            self.item_reader(item, each, false)
        };
        if self.scalar(item) {
            quote!(rt::args::set_with(#raw, #path, #read))
        } else {
            quote!(rt::args::set_by_json(#raw, #path, #read))
        }
    }

    /// Statements that check a decoded `value` against the field's constraints; `number` is
    /// the expression of the number's text as sent, which float bounds are judged on exactly.
    pub fn constraint_checks(&self, field: &Field, number: &TokenStream) -> TokenStream {
        self.checks(&field.ty, &field.constraints, &quote!(&path), number)
    }

    /// [`Self::constraint_checks`] of a value read from the text `text` (a `&str`: a prompt
    /// argument, a URI variable), which a typed format value's `@pattern` judges.
    pub fn text_checks(&self, field: &Field, text: &TokenStream) -> TokenStream {
        let typed = matches!(field.ty, Type::Primitive { name } if self.is_typed(name));
        let subject = typed.then_some(text);
        self.checks_on(&field.ty, &field.constraints, &quote!(&path), text, subject)
    }

    /// Statements that check a decoded `value` of `ty` against `c`, reporting at `path` (an
    /// expression of type `&Path`); `number` is the number's text as sent.
    fn checks(
        &self,
        ty: &Type,
        c: &Constraints,
        path: &TokenStream,
        number: &TokenStream,
    ) -> TokenStream {
        self.checks_on(ty, c, path, number, None)
    }

    /// [`Self::checks`], `@pattern` judging `text` (a `&str`) when it is given.
    fn checks_on(
        &self,
        ty: &Type,
        c: &Constraints,
        path: &TokenStream,
        number: &TokenStream,
        text: Option<&TokenStream>,
    ) -> TokenStream {
        let (base, nullable) = match ty {
            Type::Nullable { inner } => (inner.as_ref(), true),
            other => (other, false),
        };
        // `r`: the value by reference; `v`: by value (numbers).
        let (r, v) = if nullable {
            (quote!(value), quote!(*value))
        } else {
            (quote!(&value), quote!(value))
        };
        let mut checks = Vec::new();
        if let Some(range) = &c.range
            && let Some(check) = range_check(base, range, &v, path, number)
        {
            checks.push(check);
        }
        if let Some(Bounds { min, max }) = &c.exclusive {
            let bound = |n: &Option<Number>| match n {
                Some(n) => {
                    let lit = values::float_literal(*n);
                    quote!(Some(#lit))
                }
                None => quote!(None),
            };
            let (min, max) = (bound(min), bound(max));
            checks.push(quote!(
                rt::check::exclusive_number_range(#v, #number, #min, #max, #path)?;
            ));
        }
        if let Some(length) = &c.length {
            let (min, max) = (opt_usize(length.min), opt_usize(length.max));
            if matches!(base, Type::List { .. } | Type::Set { .. }) {
                checks.push(quote!(rt::check::items(value.len(), #min, #max, #path)?;));
            } else {
                checks.push(quote!(rt::check::length(#r, #min, #max, #path)?;));
            }
        }
        if let Some(pattern) = &c.pattern {
            let lit = Literal::string(pattern);
            let subject = text.cloned().unwrap_or_else(|| r.clone());
            checks.push(quote!({
                static PATTERN: rt::Pattern = rt::Pattern::new(#lit);
                rt::check::pattern(#subject, &PATTERN, #path)?;
            }));
        }
        if c.email {
            checks.push(quote!(rt::check::format(#r, rt::Format::Email, #path)?;));
        } else if c.url {
            checks.push(quote!(rt::check::format(#r, rt::Format::Uri, #path)?;));
        }
        if checks.is_empty() {
            return TokenStream::new();
        }
        if nullable {
            quote!(if let Some(value) = &value { #(#checks)* })
        } else {
            quote!(#(#checks)*)
        }
    }

    /// The body of a decoder of `fields` from the object `raw` at `path`, ending in `finish`
    /// applied to the fields' final expressions (in declaration order). `others` says what
    /// becomes of members that are not fields.
    pub fn fields_decoder(
        &self,
        fields: &[Field],
        open: Others,
        boxed: impl Fn(&Field) -> bool,
        finish: impl FnOnce(Vec<TokenStream>) -> TokenStream,
    ) -> TokenStream {
        self.fields_decoder_skipping(fields, open, None, boxed, finish)
    }

    /// [`Self::fields_decoder`] that also passes over the member `skip` (the tag of a tagged
    /// union, read already).
    pub fn fields_decoder_skipping(
        &self,
        fields: &[Field],
        open: Others,
        skip: Option<&str>,
        boxed: impl Fn(&Field) -> bool,
        finish: impl FnOnce(Vec<TokenStream>) -> TokenStream,
    ) -> TokenStream {
        let skipped = skip.is_some();
        let skip_key = skip;
        let skip = skip.map(|key| {
            let key = Literal::string(key);
            quote!(#key => {})
        });
        let other = match open {
            Others::Keep => quote!(_ => {
                let value = rt::args::json(r, &path.field(key))?;
                extra.insert(key.to_owned(), value);
            }),
            // Read (it must be JSON), then dropped.
            Others::Ignore => quote!(_ => {
                rt::args::json(r, &path.field(key))?;
            }),
            // The declared names, for `Did you mean 'query'?`.
            Others::Refuse => {
                let known = fields
                    .iter()
                    .map(|f| Literal::string(&f.json_name))
                    .chain(skip_key.map(Literal::string));
                quote!(_ => return Err(rt::ArgError::unknown_of(path, key, &[#(#known),*])),)
            }
        };
        let extra =
            (open == Others::Keep).then(|| quote!(let mut extra = rt::serde_json::Map::new();));
        let reads_others = open != Others::Refuse;
        if fields.is_empty() && reads_others && !skipped {
            // Every member is an other one: no `match` (clippy: match_single_binding).
            let done = finish(Vec::new());
            let body = match open {
                Others::Keep => quote! {
                    let value = rt::args::json(r, &path.field(key))?;
                    extra.insert(key.to_owned(), value);
                },
                _ => quote!(rt::args::json(r, &path.field(key))?;),
            };
            return quote! {
                #extra
                rt::args::object(r, path, |r, key| {
                    #body
                    Ok(())
                })?;
                Ok(#done)
            };
        }
        if fields.is_empty() && (reads_others || skipped) {
            let done = finish(Vec::new());
            let reader = if reads_others { quote!(r) } else { quote!(_) };
            return quote! {
                #extra
                rt::args::object(r, path, |#reader, key| {
                    match key {
                        #skip
                        #other
                    }
                    Ok(())
                })?;
                Ok(#done)
            };
        }
        if fields.is_empty() {
            let done = finish(Vec::new());
            return quote! {
                rt::args::object(r, path, |_, key| Err(rt::ArgError::unknown(path, key)))?;
                Ok(#done)
            };
        }
        let locals: Vec<_> = fields.iter().map(|f| names::local_ident(&f.name)).collect();
        let arms = fields.iter().zip(&locals).map(|(f, local)| {
            let wire = Literal::string(&f.json_name);
            // An f32's @range is checked on the number as sent, before it is rounded.
            let (read_ty, narrow) = match widened_f32(&f.ty, &f.constraints) {
                Some((wide, narrow)) => (wide, narrow),
                None => (f.ty.clone(), quote!(value)),
            };
            let (decode, narrow) =
                match self.text_first(&f.ty, &f.constraints, &quote!(r), &quote!(&path)) {
                    Some((decode, typed)) => (decode, quote!(#typed?)),
                    None => (
                        self.decode_expr(&read_ty, boxed(f), &quote!(r), &quote!(&path)),
                        narrow,
                    ),
                };
            let checks = self.constraint_checks(f, &quote!(r.last_number()));
            // `name?: T`: a server serving openai-strict publishes it as also taking `null`,
            // which means left out.
            let absent =
                (f.is_optional() && f.default.is_none() && !matches!(f.ty, Type::Nullable { .. }))
                    .then(|| quote!(#wire if rt::args::null_as_absent(r) => {}));
            let arm = if checks.is_empty() {
                let decode =
                    self.decode_expr(&f.ty, boxed(f), &quote!(r), &quote!(&path.field(#wire)));
                quote!(#wire => #local = Some(#decode?),)
            } else {
                quote!(#wire => {
                    let path = path.field(#wire);
                    let value = #decode?;
                    #checks
                    #local = Some(#narrow);
                })
            };
            quote!(#absent #arm)
        });
        let finals = fields
            .iter()
            .zip(&locals)
            .map(|(f, local)| self.field_final(f, local))
            .collect();
        let done = finish(finals);
        quote! {
            #(let mut #locals = None;)*
            #extra
            rt::args::object(r, path, |r, key| {
                match key {
                    #(#arms)*
                    #skip
                    #other
                }
                Ok(())
            })?;
            Ok(#done)
        }
    }

    /// A field's value once the object is read: required, or its default when absent.
    fn field_final(&self, f: &Field, local: &proc_macro2::Ident) -> TokenStream {
        let wire = Literal::string(&f.json_name);
        match &f.default {
            None if f.is_optional() => quote!(#local),
            None => quote!(rt::args::required(#local, path, #wire)?),
            Some(toolidl::model::Value::Null) => quote!(#local.flatten()),
            Some(default) => values::unwrap_default(self, local, &f.ty, default),
        }
    }
}

/// `name: value` for each field of a struct literal, or `name` alone when the value is the
/// local of that very name (an optional field: clippy's `redundant_field_names`).
pub(super) fn struct_inits(fields: &[Field], finals: Vec<TokenStream>) -> Vec<TokenStream> {
    fields
        .iter()
        .zip(finals)
        .map(|(f, value)| {
            let name = names::value_ident(&f.name);
            if name == value.to_string() {
                quote!(#name)
            } else {
                quote!(#name: #value)
            }
        })
        .collect()
}

/// For an `f32` with `@range`: the same type with `f64` for `f32`, and the expression that
/// narrows the checked `value` back.
fn widened_f32(ty: &Type, c: &Constraints) -> Option<(Type, TokenStream)> {
    if c.range.is_none() && c.exclusive.is_none() {
        return None;
    }
    let f32_ty = Type::Primitive {
        name: Primitive::F32,
    };
    let f64_ty = Type::Primitive {
        name: Primitive::F64,
    };
    match ty {
        t if *t == f32_ty => Some((f64_ty, quote!(rt::args::to_f32(value)))),
        Type::Nullable { inner } if **inner == f32_ty => Some((
            Type::Nullable {
                inner: Box::new(f64_ty),
            },
            quote!(value.map(rt::args::to_f32)),
        )),
        _ => None,
    }
}

/// Items whose Rust equality is JSON equality: scalars and enum members.
fn is_scalar(ty: &Type) -> bool {
    match ty {
        Type::Primitive { name } => !matches!(
            name,
            Primitive::Json | Primitive::Object | Primitive::Array | Primitive::Bytes
        ),
        Type::Named { def, .. } => *def == toolidl::model::DefKind::Enum,
        _ => false,
    }
}

fn is_float(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Primitive {
            name: Primitive::F32 | Primitive::F64
        }
    )
}

fn unreachable_plain() -> TokenStream {
    // A named type is always plain; `decode_expr` returned before reaching here.
    quote!(compile_error!(
        "toolidl: internal error: a named type is plain"
    ))
}

fn opt_usize(n: Option<u64>) -> TokenStream {
    match n {
        Some(n) => {
            let lit = Literal::u64_unsuffixed(n);
            quote!(Some(#lit))
        }
        None => quote!(None),
    }
}

/// `@range` as a check: on an integer type, only the bounds tighter than the type's own
/// range (decoding checks that one), as the schema writer intersects them; on a float, judged
/// on the number's text `number` as well as its value.
fn range_check(
    base: &Type,
    range: &Bounds<Number>,
    v: &TokenStream,
    path: &TokenStream,
    number: &TokenStream,
) -> Option<TokenStream> {
    let Type::Primitive { name } = base else {
        return None;
    };
    let own = values::integer_range(*name);
    let bound = |n: Option<Number>, tighter: fn(i128, i128) -> bool, end: Option<i128>| {
        let n = n?;
        match (own, end) {
            (Some(_), Some(end)) => {
                let exact = values::exact_integer(n)?;
                tighter(exact, end).then(|| values::int_literal(exact))
            }
            _ => Some(values::float_literal(n)),
        }
    };
    let min = bound(range.min, |a, b| a > b, own.map(|o| o.0));
    let max = bound(range.max, |a, b| a < b, own.map(|o| o.1));
    if min.is_none() && max.is_none() {
        return None;
    }
    let wrap = |b: Option<TokenStream>| match b {
        Some(t) => quote!(Some(#t)),
        None => quote!(None),
    };
    let (min, max) = (wrap(min), wrap(max));
    if own.is_none() {
        return Some(quote!(rt::check::number_range(#v, #number, #min, #max, #path)?;));
    }
    Some(quote!(rt::check::range(#v, #min, #max, #path)?;))
}

/// What a decoder does with an object's members that are not its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Others {
    /// `Argument 'x' is not valid. Unknown property.`
    Refuse,
    /// Into the `extra` map (an `@open` record).
    Keep,
    /// Read and dropped (an `@open` tool's arguments, an `@open(input)` record).
    Ignore,
}

impl Others {
    /// `Keep` for an `@open` record, `Ignore` for an `@open(input)` one, else `Refuse`.
    ///
    /// An `@open(input)` record's decoder also checks its structured results
    /// (`ToolOutput::checked_structured`): ignoring other members there loses nothing, since
    /// the struct has no member to carry one, so what it serializes is closed, as its
    /// `outputSchema` says.
    pub fn of_record(record: &toolidl::model::Record) -> Others {
        if record.open {
            Others::Keep
        } else if record.open_input {
            Others::Ignore
        } else {
            Others::Refuse
        }
    }
}
