//! Type expressions → [`Type`]: built-ins, generics, and names looked up across imports.

use super::*;

/// Where a type expression stands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Position {
    /// A field, a parameter, or a member's result.
    Value,
    /// A type argument of `list`, `set` or `map`.
    Item,
    /// A tool's result: `content` and `call_result` are allowed.
    ToolResult,
}

impl Resolver<'_> {
    pub(super) fn resolve_type(&mut self, te: &TypeExpr, position: Position) -> Option<Type> {
        if let [first, second, .., last] | [first, second @ last] = te.nullable.as_slice() {
            let span = second.to(*last);
            // The type as written before its first `?` (`list<u8>`, not only `list`).
            let written = self
                .sources
                .get(self.file)
                .text
                .get(te.span.start..first.start)
                .map(|t| t.trim_end().to_string())
                .unwrap_or_else(|| te.path_text());
            self.error(
                "E0105",
                span,
                format!("`{written}` is nullable more than once"),
            )
            .help = Some("a type is nullable at most once: write a single `?`".into());
        }
        let base = self.resolve_base(te, position)?;
        Some(if te.nullable.is_empty() {
            base
        } else {
            Type::Nullable {
                inner: Box::new(base),
            }
        })
    }

    pub(super) fn resolve_base(&mut self, te: &TypeExpr, position: Position) -> Option<Type> {
        let name = te.path_text();
        let generic = te.path.len() == 1 && matches!(name.as_str(), "list" | "set" | "map");
        if generic {
            let arity = if name == "map" { 2 } else { 1 };
            let usage = if name == "map" {
                "map<string, T>".to_string()
            } else {
                format!("{name}<T>")
            };
            let Some(args) = &te.args else {
                self.error(
                    "E0103",
                    te.path_span(),
                    format!("`{name}` needs type arguments"),
                )
                .help = Some(format!("write `{usage}`"));
                return None;
            };
            if args.args.len() != arity {
                let message = format!(
                    "`{name}` takes {} type argument{}, found {}",
                    arity,
                    if arity == 1 { "" } else { "s" },
                    args.args.len()
                );
                self.error("E0103", args.span, message).help = Some(format!("write `{usage}`"));
                return None;
            }
            let items: Vec<Option<(Type, Constraints)>> =
                args.args.iter().map(|a| self.resolve_item(a)).collect();
            if name == "map" {
                let key = items[0].as_ref().map(|(key, _)| key);
                if let Some(key) = key
                    && *key
                        != (Type::Primitive {
                            name: Primitive::String,
                        })
                {
                    let message = format!("map keys must be `string`, found `{}`", key);
                    self.error("E0104", args.args[0].span, message).help =
                        Some("JSON object keys are strings: write `map<string, T>`".into());
                    return None;
                }
                key?;
            }
            let (item, each) = items.into_iter().next_back()??;
            let (item, each) = (Box::new(item), Box::new(each));
            return Some(match name.as_str() {
                "list" => Type::List { item, each },
                "set" => Type::Set { item, each },
                _ => Type::Map { value: item, each },
            });
        }
        if let Some(args) = &te.args {
            if let Some(spelling) = self.foreign_type(te) {
                self.error("E0101", te.path_span(), format!("unknown type `{name}`"))
                    .help = Some(spelling);
                return None;
            }
            self.error(
                "E0103",
                args.span,
                format!("`{name}` takes no type arguments"),
            )
            .help = Some(format!(
                "only `list<T>`, `set<T>` and `map<string, T>` take type arguments; write `{name}`"
            ));
            return None;
        }
        if te.path.len() == 1 {
            if let Some(p) = Primitive::named(&name) {
                return Some(Type::Primitive { name: p });
            }
            if name == "content" || name == "call_result" {
                let message = if position == Position::ToolResult {
                    format!("`{name}` cannot be nullable or nested")
                } else {
                    format!("`{name}` can only be the result of a tool")
                };
                self.error("E0106", te.span, message).help =
                    Some(format!("write `-> {name}` as a tool's whole result"));
                return None;
            }
        }
        let (package, name, def) = self.lookup(te)?;
        if def == DefKind::Alias {
            return self.expand_alias(te, &package, &name);
        }
        Some(Type::Named { package, name, def })
    }

    /// A named type used in a type expression: its type, when it may stand there.
    fn expand_alias(&mut self, te: &TypeExpr, package: &str, name: &str) -> Option<Type> {
        if self.aliases.iter().any(|(p, n)| p == package && n == name) {
            let message = format!("named type `{name}` refers to itself");
            self.error("E0108", te.path_span(), message).help = Some(
                "a named type is written out wherever it is used, so it cannot contain itself: use a record for a recursive type".into(),
            );
            return None;
        }
        let (alias, cyclic) = self.alias_in_own_file(package, name);
        if cyclic && !self.sub {
            // `type A = list<B>; type B = list<A>;`: reported here, at the use in `A`.
            let message = format!("named type `{name}` refers back to the one being declared");
            self.error("E0108", te.path_span(), message).help = Some(
                "a named type is written out wherever it is used, so it cannot contain itself: use a record for a recursive type".into(),
            );
        }
        let alias = alias?;
        if !te.nullable.is_empty() && matches!(alias.ty, Type::Nullable { .. }) {
            self.error(
                "E0105",
                te.nullable[0],
                format!("`{name}` is nullable already"),
            )
            .help = Some("a type is nullable at most once: remove this `?`".into());
            return None;
        }
        Some(alias.ty)
    }

    /// A type argument of `list`, `set` or `map`, or a union variant's type: its type, and
    /// the constraints of the named type it is (`list<Tag>`, `list<Tag?>`), which then apply
    /// to each item.
    pub(super) fn resolve_item(&mut self, te: &TypeExpr) -> Option<(Type, Constraints)> {
        let ty = self.resolve_type(te, Position::Item)?;
        let each = self
            .field_alias(te)
            .map(|alias| Constraints {
                title: None,
                deprecated: false,
                ..alias.constraints
            })
            .unwrap_or_default();
        Some((ty, each))
    }

    /// The named type `package.name`, resolved in its own file, without diagnostics (its own
    /// resolution reports them).
    pub(super) fn alias_def(&mut self, package: &str, name: &str) -> Option<Alias> {
        self.alias_in_own_file(package, name).0
    }

    /// [`Self::alias_def`], and whether its resolution met a named type being declared
    /// here (a cycle of named types).
    fn alias_in_own_file(&mut self, package: &str, name: &str) -> (Option<Alias>, bool) {
        let Some((file, Item::Alias(decl))) = self.declaration(package, name) else {
            return (None, false);
        };
        let mut scratch = Vec::new();
        let alias = self.sub_resolver(file, &mut scratch).alias(decl);
        let cyclic = !self.aliases.is_empty() && scratch.iter().any(|d| d.code == "E0108");
        // An alias whose type did not resolve is reported at its declaration.
        let resolved = alias.ty
            != Type::Primitive {
                name: Primitive::Json,
            }
            || decl.ty.path_text() == "json";
        (resolved.then_some(alias), cyclic)
    }

    /// The named type used as the whole type of a field or parameter (with or without `?`),
    /// found without reporting anything.
    pub(super) fn field_alias(&mut self, te: &TypeExpr) -> Option<Alias> {
        if te.args.is_some() {
            return None;
        }
        let name = te.path.last()?.name.clone();
        let package = if te.path.len() > 1 {
            join_path(&te.path[..te.path.len() - 1])
        } else if self.world.locals[self.file.0].get(&name) == Some(&DeclKind::Alias) {
            self.scope.package.clone()
        } else {
            match self.scope.imported.get(&name).map(Vec::as_slice) {
                Some([(package, DefKind::Alias)]) => package.clone(),
                _ => return None,
            }
        };
        let kind = self.world.defs.get(&(package.clone(), name.clone()))?.kind;
        let expanding = self
            .aliases
            .iter()
            .any(|(p, n)| *p == package && *n == name);
        (kind == DefKind::Alias && !expanding)
            .then(|| self.alias_def(&package, &name))
            .flatten()
    }

    /// The help for a type named as another language names it (`Vec<string>`, `int`) and
    /// not declared here: the `.tool` spelling.
    fn foreign_type(&self, te: &TypeExpr) -> Option<String> {
        let name = te.path_text();
        if te.path.len() != 1
            || self.world.locals[self.file.0].contains_key(&name)
            || self.scope.imported.contains_key(&name)
        {
            return None;
        }
        let text = &self.sources.get(self.file).text;
        let args: Vec<String> = te
            .args
            .iter()
            .flat_map(|a| &a.args)
            .map(|a| type_written(text, a))
            .collect();
        let spelling = foreign_spelling(&name, &args)?;
        Some(format!(
            "write `{spelling}`: that is how a `.tool` file names this type"
        ))
    }

    pub(super) fn lookup(&mut self, te: &TypeExpr) -> Option<(String, String, DefKind)> {
        let span = te.path_span();
        let name = te.path.last()?.name.clone();
        if te.path.len() > 1 {
            let package = join_path(&te.path[..te.path.len() - 1]);
            if !self.scope.packages.contains(&package) {
                if self.scope.incomplete {
                    return None;
                }
                let loaded = self.files.iter().any(|f| f.package == package);
                let help = if loaded {
                    format!(
                        "package `{package}` is not imported by this file: import the file that declares it"
                    )
                } else {
                    format!("packages in scope: {}", self.scope.packages.join(", "))
                };
                self.error("E0101", span, format!("unknown package `{package}`"))
                    .help = Some(help);
                return None;
            }
            return match self.world.defs.get(&(package.clone(), name.clone())) {
                Some(def) => Some((package, name, def.kind)),
                None => {
                    if !self.scope.incomplete {
                        let text = te.path_text();
                        let d = self.error("E0101", span, format!("unknown type `{text}`"));
                        d.help = Some(format!(
                            "package `{package}` declares no record or enum `{name}`"
                        ));
                    }
                    None
                }
            };
        }
        match self.world.locals[self.file.0].get(&name) {
            Some(DeclKind::Record) => {
                return Some((self.scope.package.clone(), name, DefKind::Record));
            }
            Some(DeclKind::Enum) => return Some((self.scope.package.clone(), name, DefKind::Enum)),
            Some(DeclKind::Alias) => {
                return Some((self.scope.package.clone(), name, DefKind::Alias));
            }
            Some(DeclKind::Union) => {
                return Some((self.scope.package.clone(), name, DefKind::Union));
            }
            Some(DeclKind::Service) => {
                self.error("E0101", span, format!("`{name}` is a service, not a type"))
                    .help = Some(
                    "a type is a primitive, a record, an enum, a union or a named type; a service only groups tools, resources and prompts".into(),
                );
                return None;
            }
            None => {}
        }
        match self.scope.imported.get(&name).map(Vec::as_slice) {
            Some([(package, def)]) => Some((package.clone(), name, *def)),
            Some(many) => {
                let options: Vec<String> =
                    many.iter().map(|(p, _)| format!("`{p}.{name}`")).collect();
                let packages: Vec<&str> = many.iter().map(|(p, _)| p.as_str()).collect();
                let message = format!(
                    "`{name}` is ambiguous: packages {} declare it",
                    packages.join(" and ")
                );
                self.error("E0102", span, message).help =
                    Some(format!("write {}", options.join(" or ")));
                None
            }
            None => {
                if !self.scope.incomplete {
                    let mut candidates: Vec<&str> =
                        Primitive::ALL.iter().map(|(n, _)| *n).collect();
                    candidates.extend(["list", "set", "map"]);
                    let locals: Vec<String> =
                        self.world.locals[self.file.0].keys().cloned().collect();
                    candidates.extend(locals.iter().map(String::as_str));
                    let imported: Vec<String> = self.scope.imported.keys().cloned().collect();
                    candidates.extend(imported.iter().map(String::as_str));
                    let foreign = self.foreign_type(te);
                    let hint = suggest(&name, candidates).map_or_else(
                        || {
                            format!(
                                "declare `{name}` in this file, or import the file that declares it"
                            )
                        },
                        |s| format!("did you mean `{s}`?"),
                    );
                    let hint = foreign.unwrap_or(hint);
                    self.error("E0101", span, format!("unknown type `{name}`"))
                        .help = Some(hint);
                }
                None
            }
        }
    }
}
