//! Constraint attributes checked against their field's type, and defaults checked against
//! both the type and the constraints.

use super::*;

impl Resolver<'_> {
    pub(super) fn constraints(&mut self, attrs: &Attrs, ty: &Type) -> Constraints {
        let base = match ty {
            Type::Nullable { inner } => inner.as_ref(),
            other => other,
        };
        let prim = match base {
            Type::Primitive { name } => Some(*name),
            _ => None,
        };
        let is_string = prim == Some(Primitive::String);
        let mut out = Constraints::default();
        let not_applicable = |this: &mut Self, span: Span, attr: &str, applies: &str| {
            let message = format!("`@{attr}` does not apply to `{}`", ty);
            this.error("E0601", span, message).help =
                Some(format!("`@{attr}` applies to {applies}"));
        };
        if let Some((bounds, span, float_span)) = &attrs.range {
            match prim {
                Some(p) if integer_range(p).is_some() => {
                    if let Some(float_span) = float_span {
                        let message = format!(
                            "`{}` is an integer type, but a `@range` bound is a float",
                            p
                        );
                        self.error("E0604", *float_span, message).help =
                            Some("write integer bounds, or use f32/f64".into());
                    } else if let Some((lo, hi)) = integer_range(p)
                        && self.range_outside_type(bounds, attrs.range_spans, *span, p, lo, hi)
                    {
                        // Reported: a bound outside the type would be clamped silently.
                    } else {
                        out.range = Some(*bounds);
                    }
                }
                Some(p) if is_float(p) => out.range = Some(*bounds),
                _ if is_text_or_list(base) => {
                    let message = format!("`@range` does not apply to `{}`", ty);
                    self.error("E0601", *span, message).help = Some(
                        "`@range` bounds numbers; for the length of a text or a list, use `@length(min, max)`"
                            .into(),
                    );
                }
                _ => not_applicable(self, *span, "range", "integer and float types"),
            }
        }
        if let Some((bounds, span)) = &attrs.exclusive {
            match prim {
                Some(p) if is_float(p) => out.exclusive = Some(*bounds),
                _ => {
                    let message = format!("exclusive bounds of `@range` do not apply to `{}`", ty);
                    self.error("E0601", *span, message).help = Some(
                        if prim.is_some_and(|p| integer_range(p).is_some()) {
                            "exclusive bounds apply to f32 and f64; on an integer, write the next value inclusively: `@range(min: 1)` for more than 0".into()
                        } else {
                            "exclusive bounds apply to f32 and f64".into()
                        },
                    );
                }
            }
        }
        if let Some((bounds, span)) = &attrs.length {
            if is_string || matches!(base, Type::List { .. } | Type::Set { .. }) {
                out.length = Some(*bounds);
            } else {
                not_applicable(self, *span, "length", "string, list and set");
            }
        }
        if let Some((pattern, span)) = &attrs.pattern {
            // JSON Schema checks `pattern` beside `format`: the text must be in the format and
            // match. A duration's own pattern is what makes it one, so it takes no other.
            let patterned = is_string
                || matches!(
                    prim,
                    Some(
                        Primitive::Uuid
                            | Primitive::Datetime
                            | Primitive::Date
                            | Primitive::Time
                            | Primitive::Uri
                    )
                );
            if prim == Some(Primitive::Duration) {
                let message = "`@pattern` does not apply to `duration`".to_string();
                self.error("E0601", *span, message).help = Some(
                    "a duration's schema is its own pattern already; to restrict the text further, use `string` with one `@pattern`".into(),
                );
            } else if !patterned {
                not_applicable(
                    self,
                    *span,
                    "pattern",
                    "string and the string formats `uuid`, `datetime`, `date`, `time` and `uri`",
                );
            } else if let Err(e) = compile_pattern(pattern) {
                self.error("E0603", *span, format!("invalid regular expression: {e}"))
                    .help = Some(
                    "`@pattern` takes an ECMA-262 regular expression, as JSON Schema does".into(),
                );
            } else {
                out.pattern = Some(pattern.clone());
            }
        }
        for (given, attr) in [(attrs.email, "email"), (attrs.url, "url")] {
            let Some(span) = given else { continue };
            if !is_string {
                not_applicable(self, span, attr, "string");
            } else if attr == "email" {
                out.email = true;
            } else {
                out.url = true;
            }
        }
        out
    }

    /// A named type's constraints and a field's own: a kind of constraint comes from one of
    /// them, never from both (E0605).
    pub(super) fn merge_constraints(
        &mut self,
        alias: &str,
        from_alias: &Constraints,
        own: Constraints,
        attrs: &Attrs,
    ) -> Constraints {
        let spans = [
            (
                "range",
                from_alias.range.is_some() && own.range.is_some(),
                attrs.range.as_ref().map(|r| r.1),
            ),
            (
                "range",
                from_alias.exclusive.is_some() && own.exclusive.is_some(),
                attrs.exclusive.as_ref().map(|r| r.1),
            ),
            (
                "length",
                from_alias.length.is_some() && own.length.is_some(),
                attrs.length.as_ref().map(|l| l.1),
            ),
            (
                "pattern",
                from_alias.pattern.is_some() && own.pattern.is_some(),
                attrs.pattern.as_ref().map(|p| p.1),
            ),
            ("email", from_alias.email && own.email, attrs.email),
            ("url", from_alias.url && own.url, attrs.url),
        ];
        for (attr, both, span) in spans {
            if let (true, Some(span)) = (both, span) {
                self.error(
                    "E0605",
                    span,
                    format!("`@{attr}` is given by type `{alias}` already"),
                )
                .help = Some(format!(
                    "a field cannot narrow or widen its named type's `@{attr}`: remove this one, or declare another named type"
                ));
            }
        }
        Constraints {
            range: own.range.or(from_alias.range),
            length: own.length.or(from_alias.length),
            pattern: own.pattern.or_else(|| from_alias.pattern.clone()),
            email: own.email || from_alias.email,
            url: own.url || from_alias.url,
            exclusive: own.exclusive.or(from_alias.exclusive),
            title: own.title,
            deprecated: own.deprecated,
        }
    }

    pub(super) fn default(
        &mut self,
        lit: &Literal,
        ty: &Type,
        constraints: &Constraints,
    ) -> Option<Value> {
        let value = self.value_of(lit, ty)?;
        self.check_default_constraints(lit, &value, constraints);
        Some(value)
    }

    /// An item of a list, set or map default: a value of `ty` that meets each item's
    /// constraints.
    fn item_value(&mut self, lit: &Literal, ty: &Type, each: &Constraints) -> Option<Value> {
        let value = self.value_of(lit, ty)?;
        self.check_default_constraints(lit, &value, each);
        Some(value)
    }

    /// The value of a literal as a value of `ty`, type-checked all the way down (list
    /// items, map values, record fields and their own constraints).
    fn value_of(&mut self, lit: &Literal, ty: &Type) -> Option<Value> {
        let (base, nullable) = match ty {
            Type::Nullable { inner } => (inner.as_ref(), true),
            other => (other, false),
        };
        let shown = ty.to_string();
        if lit.kind == LiteralKind::Null {
            if nullable {
                return Some(Value::Null);
            }
            self.error(
                "E0503",
                lit.span,
                format!("`null` is not a value of `{shown}`"),
            )
            .help = Some(format!("make the type nullable: `{shown}?`"));
            return None;
        }
        let value = match base {
            Type::Primitive { name } => self.primitive_default(lit, *name, &shown)?,
            Type::List { item, each } | Type::Set { item, each } => {
                let LiteralKind::List(items) = &lit.kind else {
                    return self.composite_mismatch(lit, &shown, "a list `[…]`");
                };
                let values: Vec<Option<Value>> = items
                    .iter()
                    .map(|l| self.item_value(l, item, each))
                    .collect();
                let values: Vec<Value> = values.into_iter().collect::<Option<_>>()?;
                if matches!(base, Type::Set { .. }) {
                    for (i, v) in values.iter().enumerate() {
                        if values[..i].contains(v) {
                            self.error(
                                "E0501",
                                items[i].span,
                                format!("a default of `{shown}` repeats this item"),
                            )
                            .help =
                                Some("the items of a set differ: remove the repeated one".into());
                            return None;
                        }
                    }
                }
                Value::List(values)
            }
            Type::Map { value, each } => {
                let LiteralKind::Object(entries) = &lit.kind else {
                    return self.composite_mismatch(lit, &shown, "a map `{\"key\": value}`");
                };
                let mut out: Vec<MapEntry> = Vec::new();
                let mut ok = true;
                for entry in entries {
                    if !entry.quoted {
                        self.error(
                            "E0501",
                            entry.key_span,
                            "the keys of a map default are strings",
                        )
                        .help = Some(format!("write the key in double quotes: \"{}\"", entry.key));
                        ok = false;
                        continue;
                    }
                    if self.repeated(&out, entry, format!("key \"{}\"", entry.key)) {
                        ok = false;
                        continue;
                    }
                    match self.item_value(&entry.value, value, each) {
                        Some(v) => out.push(MapEntry {
                            key: entry.key.clone(),
                            value: v,
                        }),
                        None => ok = false,
                    }
                }
                if !ok {
                    return None;
                }
                Value::Map(out)
            }
            Type::Named {
                package,
                name,
                def: DefKind::Record,
            } => {
                let LiteralKind::Object(entries) = &lit.kind else {
                    return self.composite_mismatch(lit, &shown, "a record `{ field: value }`");
                };
                self.record_value(lit, entries, package, name)?
            }
            Type::Named {
                package,
                name,
                def: DefKind::Enum,
            } => {
                let members = self
                    .world
                    .defs
                    .get(&(package.clone(), name.clone()))
                    .map(|d| d.variants.clone())
                    .unwrap_or_default();
                match &lit.kind {
                    LiteralKind::Ident(member) if members.contains(member) => {
                        Value::Enum(member.clone())
                    }
                    LiteralKind::Ident(member) => {
                        let help = match suggest(member, members.iter().map(String::as_str)) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!("members of `{name}`: {}", members.join(", ")),
                        };
                        self.error(
                            "E0501",
                            lit.span,
                            format!("`{member}` is not a member of enum `{name}`"),
                        )
                        .help = Some(help);
                        return None;
                    }
                    other => {
                        let help = match other {
                            LiteralKind::String(s) if members.contains(s) => {
                                format!("write the member without quotes: `{s}`")
                            }
                            _ => format!("members of `{name}`: {}", members.join(", ")),
                        };
                        let message =
                            format!("expected a member of `{name}`, found {}", other.describe());
                        self.error("E0501", lit.span, message).help = Some(help);
                        return None;
                    }
                }
            }
            // `T??` is refused before defaults are checked; named types are inlined.
            Type::Nullable { .. }
            | Type::Named {
                def: DefKind::Alias,
                ..
            } => return None,
            Type::Named {
                package,
                name,
                def: DefKind::Union,
            } => self.union_value(lit, package, name, nullable)?,
        };
        Some(value)
    }

    /// An untagged union's default: the variant the decoder would choose when it reads the
    /// default's JSON, that is the first variant (in declaration order) whose type the JSON
    /// fits. The literal is tried on each variant as a default of its type (its constraints
    /// included); a variant it does not fit as written is tried with the other spellings of
    /// the same JSON (`"red"` as the enum member `red`, `'a'` as `"a"`, `2.0` as `2`), so a
    /// default is the variant a client sending that JSON gets. A list or object literal that
    /// an earlier list or object variant might read is refused (E0507): which variant reads
    /// it would depend on items this check does not respell.
    fn union_value(
        &mut self,
        lit: &Literal,
        package: &str,
        name: &str,
        nullable: bool,
    ) -> Option<Value> {
        let union = self.union_def(package, name)?;
        if let Some(tag) = &union.tag {
            self.error(
                "E0508",
                lit.span,
                format!("tagged union `{name}` cannot have a default"),
            )
            .help = Some(if nullable {
                format!(
                    "the only default of a tagged union is `= null`; or make it optional (`name?: {name}?`)"
                )
            } else {
                format!(
                    "a tagged union's value is a record with its tag `{tag}`, which a default cannot write: make it optional (`name?: {name}`) or nullable with `= null`"
                )
            });
            return None;
        }
        // An enum member's JSON: its wire value in the first variant that has it.
        let wire = union
            .variants
            .iter()
            .find_map(|v| self.literal_wire(lit, v));
        let composite = matches!(lit.kind, LiteralKind::List(_) | LiteralKind::Object(_));
        for (i, v) in union.variants.iter().enumerate() {
            let mut value = self.fits_variant(lit, v);
            if value.is_none() {
                for respelled in self.respellings(lit, wire.as_deref(), v) {
                    value = self.fits_variant(&respelled, v);
                    if value.is_some() {
                        break;
                    }
                }
            }
            if let Some(value) = value {
                return Some(Value::Union {
                    variant: v.name.clone(),
                    value: Box::new(value),
                });
            }
            if composite && may_read(&lit.kind, &v.ty) {
                let later = union.variants[i + 1..]
                    .iter()
                    .find(|w| self.fits_variant(lit, w).is_some())
                    .map(|w| w.name.clone());
                let Some(later) = later else {
                    break;
                };
                self.error(
                    "E0507",
                    lit.span,
                    format!(
                        "this default of union `{name}` fits variant `{later}`, but variant `{}`, declared before it, may read its JSON",
                        v.name
                    ),
                )
                .help = Some(format!(
                    "an untagged union holds the first variant a value fits, and a list or object default is not respelled item by item: write a value of `{}`, declare `{later}` before it, or give no default (`name?: {name}`)",
                    v.name
                ));
                return None;
            }
        }
        let variants: Vec<String> = union
            .variants
            .iter()
            .map(|v| format!("`{}: {}`", v.name, v.ty))
            .collect();
        self.error(
            "E0506",
            lit.span,
            format!(
                "{} is not a value of any variant of union `{name}`",
                lit.kind.describe()
            ),
        )
        .help = Some(format!(
            "a union's default is a value of one of its variants: {}",
            variants.join(", ")
        ));
        None
    }

    /// The literal as a default of variant `v`, its constraints included, or `None`; no
    /// diagnostic is kept either way.
    fn fits_variant(&mut self, lit: &Literal, v: &UnionVariant) -> Option<Value> {
        let mark = self.diagnostics.len();
        let value = self.value_of(lit, &v.ty);
        if let Some(value) = &value {
            self.check_default_constraints(lit, value, &v.constraints);
        }
        let clean = !self.diagnostics[mark..]
            .iter()
            .any(|d| d.severity == crate::diagnostics::Severity::Error);
        self.diagnostics.truncate(mark);
        value.filter(|_| clean)
    }

    /// The JSON string an enum member literal stands for in variant `v` (its wire value).
    fn literal_wire(&mut self, lit: &Literal, v: &UnionVariant) -> Option<String> {
        let LiteralKind::Ident(member) = &lit.kind else {
            return None;
        };
        let Type::Named {
            package,
            name,
            def: DefKind::Enum,
        } = &v.ty
        else {
            return None;
        };
        self.enum_wires(package, name)
            .into_iter()
            .find(|(m, _)| m == member)
            .map(|(_, wire)| wire)
    }

    /// The enum `package.name`'s members with their wire values.
    fn enum_wires(&mut self, package: &str, name: &str) -> Vec<(String, String)> {
        self.enum_def(package, name)
            .map(|e| {
                e.variants
                    .iter()
                    .map(|m| (m.name.clone(), m.wire().to_owned()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The other literals that write the same JSON as `lit` (whose enum member, if it is one,
    /// has the wire value `wire`), for variant `v`: a string as a char or an enum member, a
    /// member as its string, a map literal as a record literal, an integral float as an
    /// integer.
    fn respellings(&mut self, lit: &Literal, wire: Option<&str>, v: &UnionVariant) -> Vec<Literal> {
        let text: Option<String> = match &lit.kind {
            LiteralKind::String(s) => Some(s.clone()),
            LiteralKind::Char(c) => Some(c.to_string()),
            LiteralKind::Ident(_) => wire.map(str::to_owned),
            _ => None,
        };
        let spelled = |kind| Literal {
            kind,
            span: lit.span,
        };
        let mut out = Vec::new();
        if let Some(text) = text {
            out.push(spelled(LiteralKind::String(text.clone())));
            let mut chars = text.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                out.push(spelled(LiteralKind::Char(c)));
            }
            if let Type::Named {
                package,
                name,
                def: DefKind::Enum,
            } = &v.ty
                && let Some((member, _)) = self
                    .enum_wires(package, name)
                    .into_iter()
                    .find(|(_, w)| *w == text)
            {
                out.push(spelled(LiteralKind::Ident(member)));
            }
        }
        // A map literal (`{"key": …}`, keys as on the wire) is also a record literal, its keys
        // the fields' declared names.
        if let LiteralKind::Object(entries) = &lit.kind
            && entries.iter().all(|e| e.quoted)
            && let Type::Named {
                package,
                name,
                def: DefKind::Record,
            } = &v.ty
            && let Some(fields) = self.record_fields(package, name)
        {
            let renamed: Option<Vec<ast::Entry>> = entries
                .iter()
                .map(|e| {
                    let field = fields.iter().find(|f| f.json_name == e.key)?;
                    Some(ast::Entry {
                        key: field.name.clone(),
                        quoted: false,
                        ..e.clone()
                    })
                })
                .collect();
            if let Some(renamed) = renamed {
                out.push(spelled(LiteralKind::Object(renamed)));
            }
        }
        if let LiteralKind::Float(f) = lit.kind
            && f.fract() == 0.0
            && f.abs() < 1e19
        {
            out.push(spelled(LiteralKind::Int(f as i128)));
        }
        out.retain(|l| l.kind != lit.kind);
        out
    }

    /// A `json` default: any JSON a literal can write (objects with string keys).
    fn json_value(&mut self, lit: &Literal) -> Option<Value> {
        Some(match &lit.kind {
            LiteralKind::Null => Value::Null,
            LiteralKind::Bool(b) => Value::Bool(*b),
            LiteralKind::Int(n) => Value::Number(int_number(*n)),
            LiteralKind::Float(f) => Value::Number(Number::Float(*f)),
            LiteralKind::String(s) => Value::String(s.clone()),
            LiteralKind::List(items) => {
                let values: Vec<Option<Value>> = items.iter().map(|l| self.json_value(l)).collect();
                Value::List(values.into_iter().collect::<Option<_>>()?)
            }
            LiteralKind::Object(entries) => {
                let mut out: Vec<MapEntry> = Vec::new();
                for entry in entries {
                    if !entry.quoted || out.iter().any(|e| e.key == entry.key) {
                        let message = if entry.quoted {
                            format!("key \"{}\" is given twice", entry.key)
                        } else {
                            "the keys of a JSON object are strings".to_owned()
                        };
                        self.error("E0501", entry.key_span, message).help = Some(format!(
                            "write each key once, in double quotes: \"{}\"",
                            entry.key
                        ));
                        return None;
                    }
                    let value = self.json_value(&entry.value)?;
                    out.push(MapEntry {
                        key: entry.key.clone(),
                        value,
                    });
                }
                Value::Map(out)
            }
            other => {
                let message = format!(
                    "expected a string, number, bool, `null`, list or object in a `json` default, found {}",
                    other.describe()
                );
                self.error("E0501", lit.span, message);
                return None;
            }
        })
    }

    /// Reports `entry` when `out` has its key already.
    fn repeated(&mut self, out: &[MapEntry], entry: &ast::Entry, what: String) -> bool {
        let repeated = out.iter().any(|e| e.key == entry.key);
        if repeated {
            self.error("E0501", entry.key_span, format!("{what} is given twice"))
                .help = Some("remove one of them".into());
        }
        repeated
    }

    /// A list, map or record type given another kind of literal.
    fn composite_mismatch(&mut self, lit: &Literal, shown: &str, expected: &str) -> Option<Value> {
        let message = format!(
            "expected {expected} for `{shown}`, found {}",
            lit.kind.describe()
        );
        let example = match expected {
            e if e.starts_with("a list") => "`[]` or `[\"a\", \"b\"]`",
            e if e.starts_with("a map") => "`{}` or `{\"key\": value}`",
            e if e.starts_with("a record") => {
                "`{}` or `{ field: value }` (fields by their declared names)"
            }
            _ => "a literal of that type",
        };
        self.error("E0501", lit.span, message).help = Some(format!("write {example}"));
        None
    }

    /// `{ field: value, … }` for record `package.name`: known fields, each once, each value
    /// of its field's type and within its constraints, and every required field given.
    fn record_value(
        &mut self,
        lit: &Literal,
        entries: &[ast::Entry],
        package: &str,
        name: &str,
    ) -> Option<Value> {
        let fields = self.record_fields(package, name)?;
        let mut out: Vec<MapEntry> = Vec::new();
        let mut ok = true;
        for entry in entries {
            if entry.quoted {
                self.error(
                    "E0501",
                    entry.key_span,
                    "the fields of a record default are named without quotes",
                )
                .help = Some(format!("write `{}: …`", entry.key));
                ok = false;
                continue;
            }
            let Some(field) = fields.iter().find(|f| f.name == entry.key) else {
                let help = match suggest(&entry.key, fields.iter().map(|f| f.name.as_str())) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "fields of `{name}`: {}",
                        fields
                            .iter()
                            .map(|f| f.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                self.error(
                    "E0501",
                    entry.key_span,
                    format!("record `{name}` has no field `{}`", entry.key),
                )
                .help = Some(help);
                ok = false;
                continue;
            };
            if self.repeated(&out, entry, format!("field `{}`", entry.key)) {
                ok = false;
                continue;
            }
            match self.value_of(&entry.value, &field.ty) {
                Some(v) => {
                    self.check_default_constraints(&entry.value, &v, &field.constraints);
                    out.push(MapEntry {
                        key: entry.key.clone(),
                        value: v,
                    });
                }
                None => ok = false,
            }
        }
        let missing: Vec<&str> = fields
            .iter()
            .filter(|f| f.required && !entries.iter().any(|e| e.key == f.name))
            .map(|f| f.name.as_str())
            .collect();
        if !missing.is_empty() {
            let list = missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            self.error(
                "E0501",
                lit.span,
                format!("a default of record `{name}` leaves out its required {list}"),
            )
            .help = Some(
                "give every field that has no default and is not optional (`name?: T`)".into(),
            );
            return None;
        }
        ok.then_some(Value::Record(out))
    }

    /// The fields of record `package.name`, resolved in its own file (types, constraints,
    /// whether required), without diagnostics: its own resolution reports them.
    fn record_fields(&mut self, package: &str, name: &str) -> Option<Vec<Field>> {
        self.resolved_fields(package, name, false)
    }

    /// The fields of record `package.name` as [`Self::record_fields`] finds them, with their
    /// defaults when `with_defaults`.
    pub(super) fn resolved_fields(
        &mut self,
        package: &str,
        name: &str,
        with_defaults: bool,
    ) -> Option<Vec<Field>> {
        let (file, Item::Record(decl)) = self.declaration(package, name)? else {
            return None;
        };
        let mut scratch = Vec::new();
        let mut resolver = self.sub_resolver(file, &mut scratch);
        resolver.skip_defaults = !with_defaults;
        let record = resolver.record(decl);
        Some(record.fields)
    }

    pub(super) fn primitive_default(
        &mut self,
        lit: &Literal,
        p: Primitive,
        shown: &str,
    ) -> Option<Value> {
        let mismatch = |this: &mut Self, expected: &str, help: Option<String>| {
            let message = format!(
                "expected {expected} for `{shown}`, found {}",
                lit.kind.describe()
            );
            // Every wrong-type default says which literal would fit.
            let help = help.unwrap_or_else(|| fitting_literal(p, &lit.kind));
            this.error("E0501", lit.span, message).help = Some(help);
            None
        };
        match (&lit.kind, p) {
            (LiteralKind::Bool(b), Primitive::Bool) => Some(Value::Bool(*b)),
            (_, Primitive::Bool) => mismatch(self, "`true` or `false`", None),
            (LiteralKind::Int(n), _) if let Some((lo, hi)) = integer_range(p) => {
                if (lo..=hi).contains(n) {
                    Some(Value::Number(int_number(*n)))
                } else {
                    let message =
                        format!("default {n} is out of range for `{shown}` ({lo} to {hi})");
                    self.error("E0501", lit.span, message).help = Some(format!(
                        "write a value from {lo} to {hi}, or choose a wider type"
                    ));
                    None
                }
            }
            (_, _) if integer_range(p).is_some() => mismatch(self, "an integer", None),
            (LiteralKind::Int(n), _) if is_float(p) => Some(Value::Number(int_number(*n))),
            (LiteralKind::Float(f), _) if is_float(p) => {
                if p == Primitive::F32 && f.abs() > f32::MAX as f64 {
                    self.error(
                        "E0501",
                        lit.span,
                        format!("default {f} is out of range for `f32`"),
                    )
                    .help = Some("write a smaller number, or use `f64`".into());
                    return None;
                }
                Some(Value::Number(Number::Float(*f)))
            }
            (_, _) if is_float(p) => mismatch(self, "a number", None),
            (LiteralKind::Char(c), Primitive::Char) => Some(Value::Char(*c)),
            (LiteralKind::String(s), Primitive::Char) if s.chars().count() == 1 => mismatch(
                self,
                "a char",
                Some(format!("write a char in single quotes: '{s}'")),
            ),
            (_, Primitive::Char) => mismatch(self, "a char", None),
            (LiteralKind::String(s), _) if is_string_like(p) || p == Primitive::Bytes => {
                if let Err(expected) = check_format(p, s) {
                    let message = format!("default \"{s}\" is not a valid `{}`", p);
                    self.error("E0504", lit.span, message).help =
                        Some(format!("expected {expected}"));
                    return None;
                }
                Some(Value::String(s.clone()))
            }
            (other, _) if is_string_like(p) || p == Primitive::Bytes => {
                let help = match other {
                    LiteralKind::Ident(word) | LiteralKind::String(word) => {
                        Some(format!("write strings in double quotes: \"{word}\""))
                    }
                    LiteralKind::Char(c) => {
                        Some(format!("write strings in double quotes: \"{c}\""))
                    }
                    _ => None,
                };
                mismatch(self, "a string", help)
            }
            (LiteralKind::String(s), Primitive::Json) => Some(Value::String(s.clone())),
            (LiteralKind::Int(n), Primitive::Json) => Some(Value::Number(int_number(*n))),
            (LiteralKind::Float(f), Primitive::Json) => Some(Value::Number(Number::Float(*f))),
            (LiteralKind::Bool(b), Primitive::Json) => Some(Value::Bool(*b)),
            (LiteralKind::List(_) | LiteralKind::Object(_), Primitive::Json) => {
                self.json_value(lit)
            }
            (_, Primitive::Json) => mismatch(self, "a string, number or bool", None),
            _ => {
                self.error(
                    "E0501",
                    lit.span,
                    format!("a value of type `{shown}` cannot have a default"),
                )
                .help = Some(
                    "defaults are literals: bools, numbers, strings, chars and enum members".into(),
                );
                None
            }
        }
    }

    pub(super) fn check_default_constraints(
        &mut self,
        lit: &Literal,
        value: &Value,
        c: &Constraints,
    ) {
        let broken = |this: &mut Self, message: String| {
            this.error("E0502", lit.span, message).help =
                Some("a default must satisfy the constraints of its own field".into());
        };
        if let (Some(range), Value::Number(n)) = (&c.exclusive, value) {
            if let Some(min) = range.min
                && !compare(*n, min).is_gt()
            {
                broken(
                    self,
                    format!(
                        "default {} is not above the exclusive minimum {}",
                        number_text(*n),
                        number_text(min)
                    ),
                );
            }
            if let Some(max) = range.max
                && !compare(*n, max).is_lt()
            {
                broken(
                    self,
                    format!(
                        "default {} is not below the exclusive maximum {}",
                        number_text(*n),
                        number_text(max)
                    ),
                );
            }
        }
        if let (Some(range), Value::Number(n)) = (&c.range, value) {
            if let Some(min) = range.min
                && compare(*n, min).is_lt()
            {
                broken(
                    self,
                    format!(
                        "default {} is below the `@range` minimum {}",
                        number_text(*n),
                        number_text(min)
                    ),
                );
            }
            if let Some(max) = range.max
                && compare(*n, max).is_gt()
            {
                broken(
                    self,
                    format!(
                        "default {} is above the `@range` maximum {}",
                        number_text(*n),
                        number_text(max)
                    ),
                );
            }
        }
        if let (Some(length), Value::List(items)) = (&c.length, value) {
            let count = items.len() as u64;
            if length.min.is_some_and(|m| count < m) || length.max.is_some_and(|m| count > m) {
                let unit = if count == 1 { "item" } else { "items" };
                broken(
                    self,
                    format!(
                        "default has {count} {unit}; `@length` allows {}",
                        bounds_text(length)
                    ),
                );
            }
        }
        let Value::String(s) = value else { return };
        if let Some(length) = &c.length {
            let count = s.chars().count() as u64;
            if length.min.is_some_and(|m| count < m) || length.max.is_some_and(|m| count > m) {
                let bounds = bounds_text(length);
                let unit = if count == 1 {
                    "character"
                } else {
                    "characters"
                };
                broken(
                    self,
                    format!("default \"{s}\" has {count} {unit}; `@length` allows {bounds}"),
                );
            }
        }
        if let Some(pattern) = &c.pattern
            && let Ok(regex) = compile_pattern(pattern)
            && regex.find(s).is_none()
        {
            broken(
                self,
                format!("default \"{s}\" does not match `@pattern(\"{pattern}\")`"),
            );
        }
        if c.email && !crate::formats::is_email(s) {
            broken(
                self,
                format!("default \"{s}\" is not an e-mail address (`@email`)"),
            );
        }
        if c.url && !crate::formats::is_uri(s) {
            broken(
                self,
                format!("default \"{s}\" is not an absolute URL (`@url`)"),
            );
        }
    }
}

/// `1 to 3`, `at least 1`, `at most 3`.
fn bounds_text(length: &Bounds<u64>) -> String {
    match (length.min, length.max) {
        (Some(a), Some(b)) => format!("{a} to {b}"),
        (Some(a), None) => format!("at least {a}"),
        (None, Some(b)) => format!("at most {b}"),
        (None, None) => String::new(),
    }
}

pub(super) fn number_text(n: Number) -> String {
    match n {
        Number::UInt(u) => u.to_string(),
        Number::Int(i) => i.to_string(),
        Number::Float(f) => f.to_string(),
    }
}

/// Compiles an ECMA-262 pattern in Unicode mode (the `u` flag), as the runtime compiles it:
/// a pattern that only compiles without the flag would refuse every value at call time, and
/// `\p{L}` or `.` would match differently here than there.
pub(super) fn compile_pattern(pattern: &str) -> Result<regress::Regex, String> {
    regress::Regex::with_flags(pattern, "u").map_err(|e| e.to_string())
}

impl Resolver<'_> {
    /// E0606 at each integer `@range` bound outside its type's own range `lo..=hi`
    /// (`500` on a `u8`), with the smallest integer type that holds the bounds; true when
    /// one was reported.
    fn range_outside_type(
        &mut self,
        bounds: &Bounds<Number>,
        spans: (Option<Span>, Option<Span>),
        attr: Span,
        p: Primitive,
        lo: i128,
        hi: i128,
    ) -> bool {
        let given: Vec<i128> = [bounds.min, bounds.max]
            .into_iter()
            .flatten()
            .filter_map(exact_integer)
            .collect();
        let fits = fitting_integer(p, &given);
        let mut reported = false;
        for (bound, span) in [(bounds.min, spans.0), (bounds.max, spans.1)] {
            let Some(n) = bound.and_then(exact_integer) else {
                continue;
            };
            if (lo..=hi).contains(&n) {
                continue;
            }
            let name = p;
            let message = format!("`@range` bound {n} is outside `{name}` ({lo} to {hi})");
            self.error("E0606", span.unwrap_or(attr), message).help = Some(match fits {
                Some(other) => format!(
                    "`{name}` holds {lo} to {hi}: declare the type `{}` for these bounds, or keep `{name}` with bounds inside its range",
                    other
                ),
                None => format!(
                    "no integer type holds these bounds: keep `{name}` with bounds inside {lo} to {hi}"
                ),
            });
            reported = true;
        }
        reported
    }
}

fn exact_integer(n: Number) -> Option<i128> {
    match n {
        Number::UInt(n) => Some(i128::from(n)),
        Number::Int(n) => Some(i128::from(n)),
        Number::Float(_) => None,
    }
}

/// The narrowest integer type holding every one of `bounds`, of `p`'s signedness first.
fn fitting_integer(p: Primitive, bounds: &[i128]) -> Option<Primitive> {
    use Primitive::*;
    let unsigned = [U8, U16, U32, U64];
    let signed = [I8, I16, I32, I64];
    let order: Vec<Primitive> = if unsigned.contains(&p) {
        unsigned.into_iter().chain(signed).collect()
    } else {
        signed.into_iter().chain(unsigned).collect()
    };
    order.into_iter().find(|&t| {
        integer_range(t).is_some_and(|(lo, hi)| bounds.iter().all(|b| (lo..=hi).contains(b)))
    })
}

/// Whether `@length` applies where `@range` was written: strings, chars and lists or sets.
fn is_text_or_list(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Primitive {
            name: Primitive::String | Primitive::Char
        } | Type::List { .. }
            | Type::Set { .. }
    )
}

/// A literal of primitive `p` close to `found`, as a help line: `write "3"`, `write 3`, ….
fn fitting_literal(p: Primitive, found: &LiteralKind) -> String {
    let text = match found {
        LiteralKind::String(s) | LiteralKind::Ident(s) => Some(s.clone()),
        LiteralKind::Int(n) => Some(n.to_string()),
        LiteralKind::Float(f) => Some(f.to_string()),
        LiteralKind::Bool(b) => Some(b.to_string()),
        LiteralKind::Char(c) => Some(c.to_string()),
        _ => None,
    };
    let text = text.as_deref().unwrap_or("");
    if p == Primitive::Bool {
        return match text {
            "true" | "false" => format!("write `{text}` without quotes"),
            _ => "write `true` or `false`".into(),
        };
    }
    if integer_range(p).is_some() {
        return match text.parse::<i128>() {
            Ok(n) => format!("write the number without quotes: {n}"),
            Err(_) => "write an integer, such as 0".into(),
        };
    }
    if is_float(p) {
        return match text.parse::<f64>() {
            Ok(f) => format!("write the number without quotes: {f:?}"),
            Err(_) => "write a number, such as 0.0".into(),
        };
    }
    if p == Primitive::Char {
        return "write one character in single quotes, such as 'x'".into();
    }
    if p == Primitive::Json {
        return "write a string, a number, a bool, `null`, a list `[…]` or an object `{…}`".into();
    }
    if text.is_empty() {
        return "write a string in double quotes, such as \"text\"".into();
    }
    format!("write a string in double quotes: \"{text}\"")
}

/// Whether a value of type `ty` may be the JSON that literal `lit` writes, judged by JSON
/// kinds alone (bool, number, string, null, array and object, all the way down): a list
/// or object default that does not fit a variant as written may still be read by it when
/// this is true.
fn may_read(lit: &LiteralKind, ty: &Type) -> bool {
    let ty = match ty {
        Type::Nullable { inner } => {
            if *lit == LiteralKind::Null {
                return true;
            }
            inner.as_ref()
        }
        other => other,
    };
    if let Type::Primitive {
        name: Primitive::Json,
    } = ty
    {
        return true;
    }
    // A union or a named type: maybe.
    if let Type::Named {
        def: DefKind::Union | DefKind::Alias,
        ..
    } = ty
    {
        return true;
    }
    match lit {
        LiteralKind::Null => false,
        LiteralKind::Bool(_) => matches!(
            ty,
            Type::Primitive {
                name: Primitive::Bool
            }
        ),
        LiteralKind::Int(_) | LiteralKind::Float(_) => {
            matches!(ty, Type::Primitive { name } if integer_range(*name).is_some() || is_float(*name))
        }
        LiteralKind::String(_) | LiteralKind::Char(_) | LiteralKind::Ident(_) => match ty {
            Type::Primitive { name } => {
                is_string_like(*name) || matches!(name, Primitive::Char | Primitive::Bytes)
            }
            Type::Named { def, .. } => *def == DefKind::Enum,
            _ => false,
        },
        LiteralKind::List(items) => match ty {
            Type::List { item, .. } | Type::Set { item, .. } => {
                items.iter().all(|l| may_read(&l.kind, item))
            }
            Type::Primitive { name } => *name == Primitive::Array,
            _ => false,
        },
        LiteralKind::Object(entries) => match ty {
            Type::Map { value, .. } => entries.iter().all(|e| may_read(&e.value.kind, value)),
            Type::Named { def, .. } => *def == DefKind::Record,
            Type::Primitive { name } => *name == Primitive::Object,
            _ => false,
        },
    }
}
