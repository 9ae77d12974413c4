//! Services and their tools, resources and prompts.

use super::*;

impl Resolver<'_> {
    pub(super) fn service(&mut self, decl: &ast::ServiceDecl) -> Service {
        let service_attrs = self.attrs(&decl.attrs, Site::Service);
        let mut members: Vec<Member> = Vec::with_capacity(decl.members.len());
        // Tools, resources and prompts are three namespaces: a tool and a prompt may share
        // a name (the Rust generator tells their methods apart). Each map keeps the first.
        let mut idents: HashMap<(Keyword, &str), Span> = HashMap::new();
        let mut wire: HashMap<(Keyword, String), (&str, Span)> = HashMap::new();
        let mut uris: HashMap<String, String> = HashMap::new();
        for member in &decl.members {
            if let Some(first) = idents.get(&(member.kind, member.name.name.as_str())) {
                let file = self.file;
                let first = *first;
                let d = self.error(
                    "E0202",
                    member.name.span,
                    format!(
                        "service `{}` declares `{}` twice",
                        decl.name.name, member.name.name
                    ),
                );
                d.secondary = Some((file, first, "first declared here".into()));
                d.help = Some(format!(
                    "the {kind}s of a service have distinct names (a tool, a resource and a prompt may share one)",
                    kind = member.kind
                ));
                continue;
            }
            idents.insert((member.kind, &member.name.name), member.name.span);
            let resolved = match member.kind {
                Keyword::Tool => self.tool(member, &service_attrs),
                Keyword::Resource => self.resource(member, &service_attrs),
                Keyword::Prompt => self.prompt(member, &service_attrs),
            };
            if let Some(resource) = resolved.resource()
                && !resource.uri.is_empty()
            {
                match uris.get(&resource.uri) {
                    Some(first) => {
                        let message = format!(
                            "two resources of service `{}` have the URI \"{}\"",
                            decl.name.name, resource.uri
                        );
                        let note = format!("`{first}` has that URI too");
                        let d = self.error("E0202", member.name.span, message);
                        d.note = Some(note);
                        d.help = Some(
                            "a client reads a resource by its URI: give each its own @uri".into(),
                        );
                    }
                    None => {
                        uris.insert(resource.uri.clone(), resolved.ident.clone());
                    }
                }
            }
            let key = (member.kind, resolved.name.clone());
            members.push(resolved);
            if let Some((first_ident, first)) = wire.get(&key) {
                let kind = member.kind;
                let message = format!(
                    "two {kind}s of service `{}` are named \"{}\" on the wire",
                    decl.name.name, key.1
                );
                let note = format!(
                    "`{first_ident}` has that name, declared at {}",
                    self.position_text(*first)
                );
                let d = self.error("E0202", member.name.span, message);
                d.note = Some(note);
                d.help = Some("give one of them another name with @name(\"…\")".into());
                continue;
            }
            wire.insert(key, (&member.name.name, member.name.span));
        }
        // Grouped by keyword, each group in declaration order (a stable sort).
        members.sort_by_key(|m| m.kind.keyword());
        Service {
            name: decl.name.name.clone(),
            doc: decl.doc.lines.clone(),
            members,
        }
    }

    pub(super) fn returns(&mut self, te: Option<&TypeExpr>, tool: bool) -> Returns {
        let Some(te) = te else {
            return Returns::Nothing;
        };
        if tool && te.path.len() == 1 && te.args.is_none() && te.nullable.is_empty() {
            match te.path[0].name.as_str() {
                "content" => return Returns::Content,
                "call_result" => return Returns::CallResult,
                _ => {}
            }
        }
        let position = if tool {
            Position::ToolResult
        } else {
            Position::Value
        };
        match self.resolve_type(te, position) {
            Some(ty) => Returns::Value { ty },
            None => Returns::Nothing,
        }
    }

    /// A tool; its own `@rename_all` and `@scopes` override its service's (`service`).
    pub(super) fn tool(&mut self, decl: &MemberDecl, service: &Attrs) -> Member {
        let attrs = self.attrs(&decl.attrs, Site::Tool);
        let rename = attrs.rename_all.or(service.rename_all);
        let params = self.fields(&decl.params, Site::Param, rename, "E0203", "parameter");
        let params = self.spread(decl, params);
        let returns = self.returns(decl.returns.as_ref(), true);
        let (name, span, derived) = match &attrs.name {
            Some((name, span)) => (name.clone(), *span, false),
            None => (
                names::derived_tool_name(&decl.name.name),
                decl.name.span,
                true,
            ),
        };
        if let (Some(ty), Some(te)) = (returns.null_without_structured_content(), &decl.returns) {
            let written = ty.to_string();
            let message = format!(
                "tool `{name}` returns `{written}`, but MCP clients refuse its null result: the outputSchema is an object, and a null result has no structured content"
            );
            self.warning("W0404", te.span, message).help = Some(format!(
                "return a record with a nullable field (`value: {written}`) or `content` instead, or make a missing value a tool error"
            ));
        }
        let text = match &attrs.text {
            Some((spec, span)) => self.result_text(spec, *span, &returns, &name),
            None => None,
        };
        match names::check_tool_name(&name) {
            Err(reason) => {
                let help = if derived {
                    "tool names are 1 to 128 of A-Z a-z 0-9 _ . -; set one with @name(\"…\")"
                } else {
                    "tool names are 1 to 128 of A-Z a-z 0-9 _ . -"
                };
                self.error(
                    "E0401",
                    span,
                    format!("invalid tool name \"{name}\": {reason}"),
                )
                .help = Some(help.into());
            }
            Ok(warnings) => {
                for (code, message) in warnings {
                    self.warning(code, span, message).help = Some(
                        "a name of at most 64 of A-Z a-z 0-9 _ - is accepted everywhere".into(),
                    );
                }
            }
        }
        Member {
            ident: decl.name.name.clone(),
            name,
            title: attrs.title.clone().or_else(|| attrs.tool_title.clone()),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            params,
            returns,
            scopes: scopes(&attrs, service),
            kind: MemberKind::Tool(Tool {
                annotations: Annotations {
                    title: attrs
                        .title
                        .clone()
                        .or_else(|| attrs.annotations_title.clone()),
                    read_only: attrs.read_only,
                    destructive: attrs.destructive,
                    idempotent: attrs.idempotent,
                    open_world: attrs.open_world,
                },
                ui: attrs.ui.clone(),
                task: attrs.task,
                open: attrs.open,
                task_support: attrs.task_support,
                schema_dialect: attrs
                    .schema_dialect
                    .clone()
                    .or_else(|| service.schema_dialect.clone())
                    .or_else(|| self.dialect.clone()),
                text,
            }),
        }
    }

    /// `@text(…)` of the tool `tool`, checked against its result: a record or map (E0710),
    /// whose named fields exist (E0711) and, in a template, are scalars (E0712), in a
    /// well-formed template (E0713).
    fn result_text(
        &mut self,
        spec: &TextSpec,
        span: Span,
        returns: &Returns,
        tool: &str,
    ) -> Option<ResultText> {
        let record = match returns {
            Returns::Value {
                ty:
                    Type::Named {
                        package,
                        name,
                        def: DefKind::Record,
                    },
            } => Some((package.clone(), name.clone())),
            Returns::Value {
                ty: Type::Map { .. },
            } => None,
            other => {
                let what = match other {
                    Returns::Nothing => "no result".to_string(),
                    Returns::Content => "`content`".to_string(),
                    Returns::CallResult => "`call_result`".to_string(),
                    Returns::Value { ty } => format!("`{ty}`"),
                };
                let d = self.error(
                    "E0710",
                    span,
                    format!("`@text` gives the text beside a structured result, and tool `{tool}` returns {what}"),
                );
                d.help = Some(match other {
                    Returns::Value { ty: Type::Nullable { .. } } => {
                        "`@text` needs a record or map result that is never null: return a record with a nullable field instead".into()
                    }
                    Returns::Value { ty: Type::Primitive { name: Primitive::String } } => {
                        "a string result is its own text block; `@text` applies to a tool that returns a record or a map (structured content)".into()
                    }
                    _ => "`@text` applies to a tool that returns a record or a map (structured content)".into(),
                });
                return None;
            }
        };
        let fields = match &record {
            Some((package, name)) => self
                .resolved_fields(package, name, false)
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let result = match &record {
            Some((_, name)) => format!("record `{name}`"),
            None => "a map".to_string(),
        };
        let find = |this: &mut Self, field: &str, at: Span| -> Option<Field> {
            if let Some(f) = fields.iter().find(|f| f.name == field) {
                return Some(f.clone());
            }
            let d = this.error(
                "E0711",
                at,
                format!("`@text` of tool `{tool}` names `{field}`, which {result} has no field of"),
            );
            d.help = Some(
                match suggest(field, fields.iter().map(|f| f.name.as_str())) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None if fields.is_empty() => format!("{result} has no fields to name"),
                    None => format!(
                        "the fields of {result}: {}",
                        fields
                            .iter()
                            .map(|f| format!("`{}`", f.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                },
            );
            None
        };
        match spec {
            TextSpec::Handler => Some(ResultText::Handler),
            TextSpec::Pretty(None) => Some(ResultText::Pretty { field: None }),
            TextSpec::Pretty(Some((field, at))) => {
                let f = find(self, field, *at)?;
                Some(ResultText::Pretty {
                    field: Some(f.name),
                })
            }
            TextSpec::Template(text, at) => {
                let parts = match template_parts(text) {
                    Ok(parts) => parts,
                    Err(reason) => {
                        let d =
                            self.error("E0713", *at, format!("the template of `@text` {reason}"));
                        d.help = Some(
                            "write a field as `{name}`, and a brace itself as `{{` or `}}`".into(),
                        );
                        return None;
                    }
                };
                let mut ok = true;
                for part in &parts {
                    let TextPart::Field(name) = part else {
                        continue;
                    };
                    let Some(f) = find(self, name, *at) else {
                        ok = false;
                        continue;
                    };
                    if f.is_optional() || !is_text_scalar(&f.ty) {
                        ok = false;
                        let written = if f.is_optional() {
                            format!("an optional `{}`", f.ty)
                        } else {
                            format!("`{}`", f.ty)
                        };
                        let d = self.error(
                            "E0712",
                            *at,
                            format!("`{{{name}}}` in the `@text` of tool `{tool}` is {written}, which a sentence cannot hold"),
                        );
                        d.help = Some(format!(
                            "a template writes strings, chars, numbers, booleans and enum members; for this field use @text(pretty: {name})"
                        ));
                    }
                }
                ok.then_some(ResultText::Template { parts })
            }
        }
    }

    pub(super) fn resource(&mut self, decl: &MemberDecl, service: &Attrs) -> Member {
        let attrs = self.attrs(&decl.attrs, Site::Resource);
        self.blank_name(&attrs, "resource");
        let params = self.fields(&decl.params, Site::Param, None, "E0203", "parameter");
        self.text_like(decl, &params);
        self.no_optional_params(decl);
        self.no_spreads(decl);
        let returns = self.returns(decl.returns.as_ref(), false);
        let mut is_template = false;
        let uri = match &attrs.uri {
            None => {
                self.error("E0801", decl.name.span, format!("resource `{}` has no `@uri`", decl.name.name))
                    .help = Some("add @uri(\"scheme://path\"), or a template such as @uri(\"scheme://items/{id}\")".into());
                String::new()
            }
            Some((uri, span)) => {
                let scheme_problem = names::uri_scheme_problem(uri);
                if let Some(reason) = &scheme_problem {
                    self.error("E0805", *span, format!("invalid resource URI: {reason}"))
                        .help = Some(
                        "a resource URI is absolute: `scheme://path`, such as \"docs://pages/{page}\"".into(),
                    );
                }
                match names::template_variables(uri) {
                    _ if scheme_problem.is_some() => {}
                    Err(reason) => {
                        self.error("E0805", *span, format!("invalid URI template: {reason}"))
                            .help =
                            Some("template variables are written `{name}` (RFC 6570)".into());
                    }
                    Ok(vars) => {
                        is_template = !vars.is_empty();
                        for var in &vars {
                            if !params.iter().any(|p| p.json_name == *var) {
                                self.error(
                                    "E0802",
                                    *span,
                                    format!("URI template variable `{{{var}}}` has no parameter of that name"),
                                )
                                .help = Some(format!("add a parameter `{var}: string`"));
                            }
                        }
                        for (param, p) in decl.params.iter().zip(&params) {
                            if !vars.contains(&p.json_name) {
                                let message = format!(
                                    "parameter `{}` does not appear in the URI \"{uri}\"",
                                    p.name
                                );
                                self.error("E0803", param.name.span, message).help = Some(format!(
                                    "add `{{{}}}` to the URI template, or remove the parameter",
                                    p.json_name
                                ));
                            }
                        }
                    }
                }
                uri.clone()
            }
        };
        // A view's `_meta.ui` belongs to a `ui://` resource (MCP Apps).
        if !uri.is_empty() && !uri.starts_with("ui://") {
            for (name, span) in &attrs.view_attrs {
                self.error(
                    "E0807",
                    *span,
                    format!("`@{name}` describes an MCP Apps view, and \"{uri}\" is not a `ui://` URI"),
                )
                .help = Some(
                    "views are `ui://` resources: write @uri(\"ui://app/view.html\"), or remove the attribute".into(),
                );
            }
        }
        let view = &attrs.view;
        let has_view = view.csp.is_some()
            || view.permissions.is_some()
            || view.domain.is_some()
            || view.prefers_border.is_some();
        let resource = Resource {
            uri,
            mime_type: attrs.mime.clone(),
            ui: has_view.then(|| view.clone()),
        };
        Member {
            ident: decl.name.name.clone(),
            name: attrs
                .name
                .as_ref()
                .map_or_else(|| decl.name.name.clone(), |(n, _)| n.clone()),
            title: attrs.title.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            params,
            returns,
            scopes: scopes(&attrs, service),
            kind: if is_template {
                MemberKind::Template(resource)
            } else {
                MemberKind::Resource(resource)
            },
        }
    }

    /// The parameters of a tool with the fields of each `..Record` in its place (with the
    /// record's wire names and defaults); a spread field named like another parameter is
    /// reported (E0203) and left out.
    fn spread(&mut self, decl: &MemberDecl, own: Vec<Field>) -> Vec<Field> {
        let mut groups: Vec<(usize, Span, Vec<Field>)> = Vec::new();
        let mut seen: Vec<(String, String)> = Vec::new();
        for spread in &decl.spreads {
            let path_span = match (spread.path.first(), spread.path.last()) {
                (Some(a), Some(b)) => a.span.to(b.span),
                _ => spread.span,
            };
            let te = TypeExpr {
                path: spread.path.clone(),
                args: None,
                nullable: Vec::new(),
                span: path_span,
            };
            let Some((package, name, def)) = self.lookup(&te) else {
                continue;
            };
            if def != DefKind::Record {
                self.error(
                    "E0209",
                    path_span,
                    format!("`..{name}` spreads the fields of a record, and `{name}` is not one"),
                )
                .help = Some("spread a record: `..RecordName`".into());
                continue;
            }
            if seen.contains(&(package.clone(), name.clone())) {
                self.error("E0209", path_span, format!("`..{name}` is spread twice"))
                    .help = Some("remove one of them".into());
                continue;
            }
            let fields = self
                .resolved_fields(&package, &name, true)
                .unwrap_or_default();
            seen.push((package, name));
            groups.push((spread.index, spread.span, fields));
        }
        if groups.is_empty() {
            return own;
        }
        let mut out: Vec<Field> = Vec::new();
        let mut own = own.into_iter();
        let mut taken = 0;
        for (index, span, fields) in groups {
            while taken < index {
                match own.next() {
                    Some(f) => out.push(f),
                    None => break,
                }
                taken += 1;
            }
            for field in fields {
                if let Some(other) = out
                    .iter()
                    .chain(own.as_slice())
                    .find(|f| f.name == field.name || f.json_name == field.json_name)
                {
                    let message = format!(
                        "parameter `{}` of the spread record is declared twice (as `{}`)",
                        field.name, other.name
                    );
                    self.error("E0203", span, message).help =
                        Some("rename the parameter, or do not spread the record".into());
                    continue;
                }
                out.push(field);
            }
        }
        out.extend(own);
        out
    }

    /// `..Record` is for tools: the variables of a resource and the arguments of a prompt
    /// are each declared.
    fn no_spreads(&mut self, decl: &MemberDecl) {
        for spread in &decl.spreads {
            let kind = decl.kind;
            self.error(
                "E0209",
                spread.span,
                format!("a {kind}'s parameters cannot spread a record"),
            )
            .help =
                Some("spreading `..Record` is for tool parameters; declare each parameter".into());
        }
    }

    /// `name?: T` is for tool parameters and record fields: a resource's template variables
    /// are always there, and a prompt's arguments are text (`T?` or a default covers them).
    fn no_optional_params(&mut self, decl: &MemberDecl) {
        for p in &decl.params {
            let Some(mark) = p.optional else { continue };
            let kind = decl.kind;
            let message = format!(
                "parameter `{}` of {kind} `{}` cannot be optional (`?:`)",
                p.name.name, decl.name.name
            );
            self.error("E0806", mark, message).help = Some(if decl.kind == Keyword::Prompt {
                "a prompt argument the client may leave out is nullable (`T?`) or has a default"
                    .into()
            } else {
                "every variable of a resource's URI template is always there: write `name: T`"
                    .into()
            });
        }
    }

    /// `@name` of a resource or prompt: any text but an empty or blank one (a tool's name has
    /// its own rules, E0401).
    fn blank_name(&mut self, attrs: &Attrs, kind: &str) {
        if let Some((name, span)) = &attrs.name
            && name.trim().is_empty()
        {
            self.error("E0302", *span, "`@name` must not be empty").help =
                Some(format!("usage: @name(\"{kind}-name\")"));
        }
    }

    pub(super) fn prompt(&mut self, decl: &MemberDecl, service: &Attrs) -> Member {
        let attrs = self.attrs(&decl.attrs, Site::Prompt);
        self.blank_name(&attrs, "prompt");
        let params = self.fields(&decl.params, Site::Param, None, "E0203", "parameter");
        self.text_like(decl, &params);
        self.no_optional_params(decl);
        self.no_spreads(decl);
        Member {
            ident: decl.name.name.clone(),
            name: attrs
                .name
                .as_ref()
                .map_or_else(|| decl.name.name.clone(), |(n, _)| n.clone()),
            title: attrs.title.clone(),
            doc: decl.doc.lines.clone(),
            description: description(&attrs, &decl.doc),
            params,
            returns: self.returns(decl.returns.as_ref(), false),
            scopes: scopes(&attrs, service),
            kind: MemberKind::Prompt,
        }
    }

    /// Resource and prompt parameters arrive as text: each must have a text-like type.
    pub(super) fn text_like(&mut self, decl: &MemberDecl, params: &[Field]) {
        for param in params {
            let Some(pdecl) = decl.params.iter().find(|p| p.name.name == param.name) else {
                continue;
            };
            let is_enum = |t: &Type| {
                matches!(
                    t,
                    Type::Named {
                        def: DefKind::Enum,
                        ..
                    }
                )
            };
            // A type that failed to resolve was reported already (and left as `json`).
            let unresolved = pdecl.ty.path_text() != "json"
                && param.ty
                    == (Type::Primitive {
                        name: Primitive::Json,
                    });
            if unresolved || is_text_like(&param.ty, is_enum) {
                continue;
            }
            let kind = decl.kind;
            let message = format!(
                "parameter `{}` of {kind} `{}` has type `{}`, which is not text-like",
                param.name, decl.name.name, param.ty
            );
            self.error("E0804", pdecl.ty.span, message).help = Some(
                "resource and prompt parameters arrive as text: use string, bool, an integer or float, uuid, date, datetime, time, duration, uri, char or an enum (or one of these with `?`)".into(),
            );
        }
    }
}

/// A member's `@scopes`, else its service's, else none (`@scopes()` on a member: none, even
/// when its service has some).
fn scopes(own: &Attrs, service: &Attrs) -> Vec<String> {
    own.scopes
        .as_ref()
        .or(service.scopes.as_ref())
        .cloned()
        .unwrap_or_default()
}

/// A type a `@text` template writes as text: a string, a char, a number, a boolean or an
/// enum member (never null).
fn is_text_scalar(ty: &Type) -> bool {
    use Primitive::*;
    match ty {
        Type::Primitive { name } => matches!(
            name,
            Bool | I8
                | I16
                | I32
                | I64
                | Integer
                | U8
                | U16
                | U32
                | U64
                | F32
                | F64
                | String
                | Char
        ),
        Type::Named {
            def: DefKind::Enum, ..
        } => true,
        _ => false,
    }
}

/// A `@text` template read into text and `{field}`s: `{{` and `}}` are braces; a brace
/// otherwise unmatched, an empty `{}` or a placeholder that is not a name is an error.
pub(crate) fn template_parts(text: &str) -> Result<Vec<TextPart>, String> {
    let mut parts = Vec::new();
    let mut literal = std::string::String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '}' => return Err("has a `}` that closes nothing".into()),
            '{' => {
                let mut name = std::string::String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => name.push(c),
                        None => {
                            return Err(format!("has a `{{` that is never closed (`{{{name}`)"));
                        }
                    }
                }
                let ident = name.trim();
                let mut cs = ident.chars();
                let is_name = cs
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && cs.all(|c| c.is_ascii_alphanumeric() || c == '_');
                if ident.is_empty() {
                    return Err("has an empty `{}`".into());
                }
                if !is_name {
                    return Err(format!("has `{{{name}}}`, which is not a field name"));
                }
                if !literal.is_empty() {
                    parts.push(TextPart::Text(std::mem::take(&mut literal)));
                }
                parts.push(TextPart::Field(ident.to_owned()));
            }
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        parts.push(TextPart::Text(literal));
    }
    Ok(parts)
}
