//! Per service: the handler trait, `XxxServer<T>` and its `Service` impl (listings, argument
//! decoding, dispatch, result encoding).

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use toolidl::model::{
    DefKind, Field, Primitive, Prompt, Resource, Returns, Service, TaskMode, Tool, Type, Value,
};

use super::context::{Context, doc_attrs, field_doc};
use super::decode::{format_of, is_plain};
use super::names;
use crate::listings::{Listing, ServiceListings};

/// A JSON listing as a raw string literal (`r#"{…}"#`), as a person would write it.
fn raw_string(json: &str) -> TokenStream {
    let mut hashes = String::from("#");
    while json.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{json}\"{hashes}")
        .parse()
        .unwrap_or_else(|_| {
            let lit = Literal::string(json);
            quote!(#lit)
        })
}

/// The variables of a URI template, in order (`{name}` → `name`).
fn template_variables(uri: &str) -> Vec<&str> {
    uri.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(var, _)| var))
        .collect()
}

impl Context<'_> {
    pub fn service(&self, service: &Service, listings: &ServiceListings) -> TokenStream {
        let args = service.tools.iter().map(|t| self.tool_args(t));
        let trait_ = self.handler_trait(service);
        let server = self.server(service, listings);
        quote!(#(#args)* #trait_ #server)
    }

    /// `GetWeatherArgs`: a tool's decoded arguments, with defaults applied.
    fn tool_args(&self, tool: &Tool) -> Option<TokenStream> {
        let name = names::plain(&args_name(tool)?);
        let doc = format!(
            " The arguments of the tool `{}`, decoded and checked.",
            tool.name
        );
        let fields = tool.params.iter().map(|f| {
            let doc = field_doc(f);
            let docs = if doc.is_empty() {
                doc_attrs(&[format!("The argument `{}`.", f.json_name)])
            } else {
                doc_attrs(&doc)
            };
            let ident = names::value_ident(&f.name);
            let ty = self.field_type(f, false);
            quote!(#docs pub #ident: #ty,)
        });
        let others = if tool.open {
            super::decode::Others::Ignore
        } else {
            super::decode::Others::Refuse
        };
        let body = self.fields_decoder(
            &tool.params,
            others,
            |_| false,
            |finals| {
                let inits = super::decode::struct_inits(&tool.params, finals);
                quote!(#name { #(#inits),* })
            },
        );
        let result = self.std("Result");
        Some(quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, PartialEq)]
            pub struct #name {
                #(#fields)*
            }

            impl rt::Decode for #name {
                fn read(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> #result<Self, rt::ArgError> {
                    #body
                }
            }
        })
    }

    /// The parameters of a handler method, after `&self` and the context.
    fn params(&self, fields: &[Field]) -> Vec<TokenStream> {
        fields
            .iter()
            .map(|f| {
                let name = names::value_ident(&f.name);
                let ty = self.field_type(f, false);
                quote!(#name: #ty)
            })
            .collect()
    }

    fn value_type(&self, returns: &Returns) -> TokenStream {
        match returns {
            Returns::Nothing => quote!(()),
            Returns::Content => {
                let vec = self.std("Vec");
                quote!(#vec<rt::serde_json::Value>)
            }
            Returns::CallResult => quote!(rt::serde_json::Value),
            Returns::Value { ty } => self.rust_type(ty, false),
        }
    }

    /// A method's docs: its doc comment (or a line naming what it serves), then the
    /// parameters' doc comments.
    fn method_docs(&self, doc: &[String], what: &str, params: &[Field]) -> TokenStream {
        let mut lines: Vec<String> = if doc.is_empty() {
            vec![what.to_owned()]
        } else {
            doc.to_vec()
        };
        let documented: Vec<(&Field, Vec<String>)> = params
            .iter()
            .map(|p| (p, field_doc(p)))
            .filter(|(_, doc)| !doc.is_empty())
            .collect();
        if !documented.is_empty() {
            lines.push(String::new());
            lines.push("# Arguments".into());
            lines.push(String::new());
            for (p, doc) in documented {
                let name = names::value_name(&p.name);
                lines.push(format!("- `{name}`: {}", doc.join(" ")));
            }
        }
        doc_attrs(&lines)
    }

    fn handler_method(
        &self,
        ident: &str,
        docs: TokenStream,
        params: &[Field],
        ok: TokenStream,
        error: TokenStream,
    ) -> TokenStream {
        let name = names::value_ident(ident);
        let params = self.params(params);
        let result = self.std("Result");
        let send = self.std("Send");
        let many = (params.len() > 5).then(|| quote!(#[allow(clippy::too_many_arguments)]));
        quote! {
            #docs
            #many
            fn #name(
                &self,
                ctx: rt::RequestContext,
                #(#params),*
            ) -> impl ::core::future::Future<Output = #result<#ok, #error>> + #send;
        }
    }

    fn handler_trait(&self, service: &Service) -> TokenStream {
        let ident = names::type_ident(&service.name);
        let server = names::plain(&names::server_name(&service.name));
        let mut docs = if service.doc.is_empty() {
            vec![format!(
                "The tools, resources and prompts of service `{}`.",
                service.name
            )]
        } else {
            service.doc.clone()
        };
        docs.push(String::new());
        docs.push(format!(
            "Implement it with `async fn`s and serve it with [`{server}`]."
        ));
        let docs = doc_attrs(&docs);
        let tools = service.tools.iter().map(|t| {
            let docs = self.method_docs(&t.doc, &format!("The tool `{}`.", t.name), &t.params);
            self.handler_method(
                &t.ident,
                docs,
                &t.params,
                self.value_type(&t.returns),
                quote!(rt::ToolError),
            )
        });
        let resources = service.resources.iter().map(|r| {
            let what = format!("Reads the resource `{}`.", r.uri);
            let docs = self.method_docs(&r.doc, &what, &r.params);
            self.handler_method(
                &method_name(service, "resource", &r.ident),
                docs,
                &r.params,
                self.value_type(&r.returns),
                quote!(rt::RpcError),
            )
        });
        let prompts = service.prompts.iter().map(|p| {
            let what = format!("Renders the prompt `{}`.", p.name);
            let docs = self.method_docs(&p.doc, &what, &p.params);
            self.handler_method(
                &method_name(service, "prompt", &p.ident),
                docs,
                &p.params,
                self.value_type(&p.returns),
                quote!(rt::RpcError),
            )
        });
        let complete = has_completions(service).then(|| self.complete_method(service));
        let send = self.std("Send");
        let sync = self.std("Sync");
        quote! {
            #docs
            pub trait #ident: #send + #sync + 'static {
                #(#tools)*
                #(#resources)*
                #(#prompts)*
                #complete
            }
        }
    }

    /// The provided `complete` method: enum members that start with what was typed.
    fn complete_method(&self, service: &Service) -> TokenStream {
        let mut arms = Vec::new();
        let mut add = |kind: &str, reference: &str, params: &[Field]| {
            for p in params {
                if let Some((package, name)) = enum_of(&p.ty) {
                    let path = self.type_path(package, name);
                    let (kind, reference) = (Literal::string(kind), Literal::string(reference));
                    let arg = Literal::string(&p.json_name);
                    arms.push(quote!((#kind, #reference, #arg) => &#path::NAMES,));
                }
            }
        };
        for r in service.resources.iter().filter(|r| r.is_template) {
            add("ref/resource", &r.uri, &r.params);
        }
        for p in &service.prompts {
            add("ref/prompt", &p.name, &p.params);
        }
        let result = self.std("Result");
        let send = self.std("Send");
        let body = if arms.is_empty() {
            quote! {
                let _ = ctx;
                ::core::future::ready(Ok(rt::Completion::members(&[], &request.argument_value)))
            }
        } else {
            quote! {
                let _ = ctx;
                let names: &[&str] = match (
                    request.ref_type.as_str(),
                    request.ref_name.as_str(),
                    request.argument_name.as_str(),
                ) {
                    #(#arms)*
                    _ => &[],
                };
                ::core::future::ready(Ok(rt::Completion::members(names, &request.argument_value)))
            }
        };
        quote! {
            /// Suggests values for a prompt argument or a resource-template variable
            /// (`completion/complete`). By default: the members of an enum-typed one that
            /// start with what was typed, and nothing for the others.
            fn complete(
                &self,
                ctx: rt::RequestContext,
                request: rt::CompletionRequest,
            ) -> impl ::core::future::Future<Output = #result<rt::Completion, rt::RpcError>> + #send {
                #body
            }
        }
    }

    fn server(&self, service: &Service, listings: &ServiceListings) -> TokenStream {
        let trait_ident = names::type_ident(&service.name);
        let server = names::plain(&names::server_name(&service.name));
        let doc = format!(
            " Serves a [`{trait_ident}`] implementation: its listings, argument decoding and dispatch."
        );
        let prompt_decoders = service
            .prompts
            .iter()
            .filter(|p| !p.params.is_empty())
            .map(|p| self.prompt_decoder(p, &method_name(service, "prompt", &p.ident)));
        let resource_decoders = service
            .resources
            .iter()
            .filter(|r| r.is_template && !r.params.is_empty())
            .map(|r| self.resource_decoder(r, &method_name(service, "resource", &r.ident)));
        let service_impl = self.service_impl(service, listings);
        quote! {
            #[doc = #doc]
            pub struct #server<T> {
                inner: rt::Arc<T>,
            }

            impl<T: #trait_ident> #server<T> {
                /// Serves `inner`.
                pub fn new(inner: T) -> Self {
                    Self::from_arc(rt::Arc::new(inner))
                }

                /// Serves an implementation that is shared elsewhere too.
                pub fn from_arc(inner: rt::Arc<T>) -> Self {
                    #server { inner }
                }

                /// The implementation calls are dispatched to.
                pub fn get_ref(&self) -> &T {
                    &self.inner
                }

                #(#resource_decoders)*
                #(#prompt_decoders)*
            }

            impl<T> ::core::clone::Clone for #server<T> {
                fn clone(&self) -> Self {
                    #server { inner: rt::Arc::clone(&self.inner) }
                }
            }

            impl<T: #trait_ident> ::core::convert::From<#server<T>> for rt::Arc<dyn rt::Service> {
                fn from(server: #server<T>) -> Self {
                    rt::Arc::new(server)
                }
            }

            #service_impl
        }
    }

    /// The decoded arguments' type: `()`, the one value, or a tuple.
    fn args_type(&self, params: &[Field]) -> TokenStream {
        let types: Vec<_> = params
            .iter()
            .map(|f| self.rust_type(&f.ty, false))
            .collect();
        match types.as_slice() {
            [one] => one.clone(),
            _ => quote!((#(#types),*)),
        }
    }

    fn service_impl(&self, service: &Service, listings: &ServiceListings) -> TokenStream {
        let trait_ident = names::type_ident(&service.name);
        let server = names::plain(&names::server_name(&service.name));
        let tools = listing_fn(quote!(tools), quote!(rt::ToolDef), &listings.tools, |l| {
            let name = Literal::string(&l.name);
            let json = raw_string(&l.json());
            let scopes = service.tools.iter().find(|t| t.ident == l.ident);
            scoped(
                quote!(rt::ToolDef::new(#name, #json)),
                scopes.map(|t| &t.scopes),
            )
        });
        let call_tool = (!service.tools.is_empty()).then(|| self.call_tool(service));
        let task_support = task_support(service);
        let def = |l: &Listing, scopes: Option<&Vec<String>>| {
            let json = raw_string(&l.json());
            scoped(quote!(rt::ListingDef::new(#json)), scopes)
        };
        let listing_def = |l: &Listing| {
            def(
                l,
                service
                    .resources
                    .iter()
                    .find(|r| r.ident == l.ident)
                    .map(|r| &r.scopes),
            )
        };
        let prompt_def = |l: &Listing| {
            def(
                l,
                service
                    .prompts
                    .iter()
                    .find(|p| p.ident == l.ident)
                    .map(|p| &p.scopes),
            )
        };
        let resources = listing_fn(
            quote!(resources),
            quote!(rt::ListingDef),
            &listings.resources,
            listing_def,
        );
        let templates = listing_fn(
            quote!(resource_templates),
            quote!(rt::ListingDef),
            &listings.resource_templates,
            listing_def,
        );
        let prompts = listing_fn(
            quote!(prompts),
            quote!(rt::ListingDef),
            &listings.prompts,
            prompt_def,
        );
        let read = (!service.resources.is_empty()).then(|| self.read_resource(service, listings));
        let get_prompt = (!service.prompts.is_empty()).then(|| self.get_prompt(service));
        let complete = has_completions(service).then(|| self.complete_dispatch(service));
        // A service without tools still implements the required `call_tool`.
        let call_tool = call_tool.unwrap_or_else(|| {
            quote! {
                fn call_tool(
                    self: rt::Arc<Self>,
                    name: &str,
                    _args: &rt::RawValue,
                    _ctx: rt::RequestContext,
                ) -> rt::BoxFuture<rt::ToolResult> {
                    rt::ready(Err(rt::ToolError::internal(format!("no tool named {name}"))))
                }
            }
        });
        quote! {
            impl<T: #trait_ident> rt::Service for #server<T> {
                #tools
                #call_tool
                #task_support
                #resources
                #templates
                #read
                #prompts
                #get_prompt
                #complete
            }
        }
    }

    fn call_tool(&self, service: &Service) -> TokenStream {
        let arms = service.tools.iter().map(|t| {
            let wire = Literal::string(&t.name);
            let method = names::value_ident(&t.ident);
            let params: Vec<Ident> = t
                .params
                .iter()
                .map(|p| names::value_ident(&p.name))
                .collect();
            let output = self.tool_output(t);
            let call = quote!(self.inner.#method(ctx, #(#params),*).await?);
            let body = match &t.returns {
                Returns::Nothing => quote!(#call; #output),
                // A value that can nest without bound may be too deep to write, and then to
                // drop on a worker's stack: the runtime disposes of it.
                Returns::Value { ty } if self.facts.nests_without_bound(ty) => quote! {
                    let value = #call;
                    let output = #output;
                    rt::ToolOutput::dispose_if_failed(value, output)
                },
                Returns::Value { .. } | Returns::Content | Returns::CallResult => {
                    quote!(let value = #call; #output)
                }
            };
            let run = quote!(Box::pin(async move { #body }));
            if t.params.is_empty() && t.open {
                // `@open` without parameters: any object is accepted, and ignored.
                quote! {
                    #wire => {
                        if let Err(e) = rt::args::object(args, &rt::Path::Root, |_, _| Ok(())) {
                            return rt::ready(Err(e.into()));
                        }
                        #run
                    }
                }
            } else if t.params.is_empty() {
                quote! {
                    #wire => {
                        if let Err(e) = rt::args::object(args, &rt::Path::Root, |key, _| {
                            Err(rt::ArgError::unknown(&rt::Path::Root, key))
                        }) {
                            return rt::ready(Err(e.into()));
                        }
                        #run
                    }
                }
            } else {
                let args_ident = names::plain(&args_name(t).unwrap_or_default());
                quote! {
                    #wire => match <#args_ident as rt::Decode>::decode(args, &rt::Path::Root) {
                        Ok(#args_ident { #(#params),* }) => #run,
                        Err(e) => rt::ready(Err(e.into())),
                    },
                }
            }
        });
        quote! {
            fn call_tool(
                self: rt::Arc<Self>,
                name: &str,
                args: &rt::RawValue,
                ctx: rt::RequestContext,
            ) -> rt::BoxFuture<rt::ToolResult> {
                match name {
                    #(#arms)*
                    _ => rt::ready(Err(rt::ToolError::internal(format!("no tool named {name}")))),
                }
            }
        }
    }

    /// The seed's result table: how a handler's value becomes a `ToolOutput`.
    fn tool_output(&self, tool: &Tool) -> TokenStream {
        let ty = match &tool.returns {
            Returns::Nothing => return quote!(Ok(rt::ToolOutput::Empty)),
            Returns::Content => return quote!(Ok(rt::ToolOutput::Content(value))),
            Returns::CallResult => return quote!(Ok(rt::ToolOutput::CallResult(value))),
            Returns::Value { ty } => ty,
        };
        let (base, nullable) = match ty {
            Type::Nullable { inner } => (inner.as_ref(), true),
            other => (other, false),
        };
        let string = self.std("String");
        match base {
            Type::Primitive {
                name: Primitive::String,
            } if nullable => {
                quote!(Ok(rt::ToolOutput::Text(value.unwrap_or_else(|| #string::from("null")))))
            }
            Type::Primitive {
                name: Primitive::String,
            } => quote!(Ok(rt::ToolOutput::Text(value))),
            Type::Named {
                package,
                name,
                def: DefKind::Enum,
            } => {
                let path = self.type_path(package, name);
                if nullable {
                    quote!(Ok(rt::ToolOutput::text(value.map_or("null", #path::as_str))))
                } else {
                    quote!(Ok(rt::ToolOutput::text(value.as_str())))
                }
            }
            Type::Named {
                def: DefKind::Record,
                ..
            }
            | Type::Map { .. } => {
                let checked = is_plain(base);
                match (nullable, checked) {
                    (false, true) => quote!(rt::ToolOutput::checked_structured(&value)),
                    (true, true) => {
                        quote!(rt::ToolOutput::checked_nullable_structured(value.as_ref()))
                    }
                    (false, false) => quote!(rt::ToolOutput::structured(&value)),
                    (true, false) => quote!(rt::ToolOutput::nullable_structured(value.as_ref())),
                }
            }
            _ => quote!(rt::ToolOutput::json(&value)),
        }
    }

    /// An expression `Result<T, ArgError>` reading the text `text` (a `&str`) at `path` as a
    /// value of `ty` (the inner type of a `T?`).
    fn text_expr(&self, ty: &Type, path: &TokenStream) -> TokenStream {
        match ty {
            Type::Nullable { inner } => self.text_expr(inner, path),
            Type::Named {
                package,
                name,
                def: DefKind::Enum,
            } => {
                let ty = self.type_path(package, name);
                quote!(rt::args::text_member(text, #path, &#ty::NAMES).map(|i| #ty::ALL[i]))
            }
            Type::Primitive { name } => match format_of(*name) {
                Some(format) => quote!(rt::args::text_formatted(text, #path, #format)),
                None => {
                    let rust = self.primitive(*name);
                    quote!(rt::args::text::<#rust>(text, #path))
                }
            },
            // The resolver admits only text-like types here.
            other => {
                let rust = self.rust_type(other, false);
                quote!(rt::args::text::<#rust>(text, #path))
            }
        }
    }

    /// How to read the text `text` for field `f` at `path` (a `Path` in scope): the decoding
    /// expression, and the checks of its `value`.
    fn text_field(&self, f: &Field, path: &TokenStream) -> (TokenStream, TokenStream) {
        let decode = self.text_expr(&f.ty, path);
        // Checks see the inner value; wrap it back after them.
        let inner = Field {
            ty: match &f.ty {
                Type::Nullable { inner } => (**inner).clone(),
                other => other.clone(),
            },
            ..f.clone()
        };
        let checks = self.constraint_checks(&inner, &quote!(text));
        (decode, checks)
    }

    /// `method`: the prompt's Rust method name.
    fn prompt_decoder(&self, p: &Prompt, method: &str) -> TokenStream {
        let name = decoder_name(method);
        let ty = self.args_type(&p.params);
        let locals: Vec<Ident> = p
            .params
            .iter()
            .map(|f| names::local_ident(&f.name))
            .collect();
        let arms = p.params.iter().zip(&locals).map(|(f, local)| {
            let wire = Literal::string(&f.json_name);
            let (decode, checks) = self.text_field(f, &quote!(&path.field(#wire)));
            if checks.is_empty() {
                quote!(#wire => #local = Some(#decode?),)
            } else {
                let (decode, _) = self.text_field(f, &quote!(&path));
                quote!(#wire => {
                    let path = path.field(#wire);
                    let value = #decode?;
                    #checks
                    #local = Some(value);
                })
            }
        });
        let finals: Vec<TokenStream> = p
            .params
            .iter()
            .zip(&locals)
            .map(|(f, local)| {
                let wire = Literal::string(&f.json_name);
                let nullable = matches!(f.ty, Type::Nullable { .. });
                match (&f.default, nullable) {
                    (None, false) => quote!(rt::args::required(#local, path, #wire)?),
                    (None | Some(Value::Null), true) => quote!(#local),
                    (Some(d), true) => {
                        let d = super::values::default_expr(self, &f.ty, d);
                        quote!(#local.map(Some).unwrap_or(#d))
                    }
                    (Some(d), false) => super::values::unwrap_default(self, local, &f.ty, d),
                }
            })
            .collect();
        // `Ok(required(…)?)` is `required(…)` (clippy: needless_question_mark).
        let single_required = matches!(p.params.as_slice(), [f] if f.default.is_none() && !matches!(f.ty, Type::Nullable { .. }));
        let done = if single_required {
            let local = &locals[0];
            let wire = Literal::string(&p.params[0].json_name);
            quote!(rt::args::required(#local, path, #wire))
        } else {
            let done = args_tuple(finals);
            quote!(Ok(#done))
        };
        let result = self.std("Result");
        let known = p.params.iter().map(|f| Literal::string(&f.json_name));
        let doc = format!(" The arguments of the prompt `{}`.", p.name);
        quote! {
            #[doc = #doc]
            fn #name(raw: &rt::RawValue) -> #result<#ty, rt::ArgError> {
                let path = &rt::Path::Root;
                #(let mut #locals = None;)*
                rt::args::text_arguments(raw, path, |key, text| {
                    // A `null` argument is one the client left out.
                    let Some(text) = text else { return Ok(()) };
                    let text = text.as_ref();
                    match key {
                        #(#arms)*
                        _ => return Err(rt::ArgError::unknown_of(path, key, &[#(#known),*])),
                    }
                    Ok(())
                })?;
                #done
            }
        }
    }

    fn get_prompt(&self, service: &Service) -> TokenStream {
        let arms = service.prompts.iter().map(|p| {
            let wire = Literal::string(&p.name);
            let method_name = method_name(service, "prompt", &p.ident);
            let method = names::value_ident(&method_name);
            let params: Vec<Ident> = p
                .params
                .iter()
                .map(|f| names::local_ident(&f.name))
                .collect();
            let output = self.prompt_output(&p.returns);
            let call = quote!(self.inner.#method(ctx, #(#params),*).await?);
            let body = if matches!(p.returns, Returns::Nothing) {
                quote!(#call; #output)
            } else {
                quote!(let value = #call; #output)
            };
            let run = quote!(Some(Box::pin(async move { #body })));
            if p.params.is_empty() {
                quote! {
                    #wire => {
                        let _ = args;
                        #run
                    }
                }
            } else {
                let decode = decoder_name(&method_name);
                let pattern = match params.as_slice() {
                    [one] => quote!(#one),
                    _ => quote!((#(#params),*)),
                };
                quote! {
                    #wire => match Self::#decode(args) {
                        Ok(#pattern) => #run,
                        Err(e) => Some(rt::ready(Err(e.into()))),
                    },
                }
            }
        });
        let result = self.std("Result");
        let option = self.std("Option");
        quote! {
            fn get_prompt(
                self: rt::Arc<Self>,
                name: &str,
                args: &rt::RawValue,
                ctx: rt::RequestContext,
            ) -> #option<rt::BoxFuture<#result<rt::serde_json::Value, rt::RpcError>>> {
                match name {
                    #(#arms)*
                    _ => None,
                }
            }
        }
    }

    fn prompt_output(&self, returns: &Returns) -> TokenStream {
        let empty = quote!(rt::content::prompt_empty());
        self.text_output(
            returns,
            empty,
            |text| quote!(rt::content::prompt_user_text(None, #text)),
            None,
        )
    }

    /// A resource's or prompt's value as its result object: a string as it is, bytes as a
    /// blob (resources), anything else as its JSON text; `None` of a `T?` as no content.
    fn text_output(
        &self,
        returns: &Returns,
        empty: TokenStream,
        text: impl Fn(TokenStream) -> TokenStream,
        blob: Option<TokenStream>,
    ) -> TokenStream {
        let ty = match returns {
            Returns::Value { ty } => ty,
            _ => return quote!(Ok(#empty)),
        };
        let (base, nullable) = match ty {
            Type::Nullable { inner } => (inner.as_ref(), true),
            other => (other, false),
        };
        let one = match base {
            Type::Primitive {
                name: Primitive::String,
            } => text(quote!(value)),
            Type::Primitive {
                name: Primitive::Bytes,
            } if blob.is_some() => blob.unwrap_or_default(),
            _ => {
                let json = quote!(
                    rt::serde_json::to_string(&value)
                        .map_err(|e| rt::RpcError::internal(e.to_string()))?
                );
                text(json)
            }
        };
        if nullable {
            quote!(Ok(match value {
                Some(value) => #one,
                None => #empty,
            }))
        } else {
            quote!(Ok(#one))
        }
    }

    fn read_resource(&self, service: &Service, listings: &ServiceListings) -> TokenStream {
        // Fixed URIs first: a template must not take a URI that a listed resource names
        // (`notes://{id}` and `notes://index`), whatever the declaration order.
        let (templates, fixed): (Vec<&Resource>, Vec<&Resource>) =
            service.resources.iter().partition(|r| r.is_template);
        let branches = fixed.into_iter().chain(templates).map(|r| {
            let listing = listings
                .resources
                .iter()
                .chain(&listings.resource_templates)
                .find(|l| l.ident == r.ident);
            let mime = listing
                .and_then(|l| l.entry.get("mimeType"))
                .and_then(|m| m.as_str())
                .map(str::to_owned);
            self.resource_branch(r, mime, &method_name(service, "resource", &r.ident))
        });
        let option = self.std("Option");
        let result = self.std("Result");
        quote! {
            fn read_resource(
                self: rt::Arc<Self>,
                uri: &str,
                ctx: rt::RequestContext,
            ) -> #option<rt::BoxFuture<#result<rt::serde_json::Value, rt::RpcError>>> {
                #(#branches)*
                None
            }
        }
    }

    /// `method`: the resource's Rust method name.
    fn resource_branch(&self, r: &Resource, mime: Option<String>, method: &str) -> TokenStream {
        let decode = decoder_name(method);
        let method = names::value_ident(method);
        let template = Literal::string(&r.uri);
        let default_mime = match &r.returns {
            Returns::Value { ty } => match strip_nullable(ty) {
                Type::Primitive {
                    name: Primitive::String,
                } => "text/plain",
                Type::Primitive {
                    name: Primitive::Bytes,
                } => "application/octet-stream",
                _ => "application/json",
            },
            _ => "text/plain",
        };
        let mime = Literal::string(mime.as_deref().unwrap_or(default_mime));
        let empty = quote!(rt::content::resource_empty());
        let output = self.text_output(
            &r.returns,
            empty,
            |text| quote!(rt::content::resource_text(&uri, #mime, #text)),
            Some(quote!(rt::content::resource_blob(&uri, #mime, &value))),
        );
        let params: Vec<Ident> = r
            .params
            .iter()
            .map(|f| names::local_ident(&f.name))
            .collect();
        let call = quote!(self.inner.#method(ctx, #(#params),*).await?);
        let body = if matches!(r.returns, Returns::Nothing) {
            quote!(#call; #output)
        } else {
            quote!(let value = #call; #output)
        };
        // The result names the URI it was read from, unless it is empty.
        let owned_uri =
            (!matches!(r.returns, Returns::Nothing)).then(|| quote!(let uri = uri.to_owned();));
        let run = quote! {
            #owned_uri
            return Some(Box::pin(async move { #body }));
        };
        if !r.is_template {
            return quote! {
                if uri == #template {
                    #run
                }
            };
        }
        // Bind each variable's text once, by its first place in the template.
        let mut seen = Vec::new();
        let bindings = template_variables(&r.uri).into_iter().map(|v| {
            if seen.contains(&v) {
                return quote!(_);
            }
            seen.push(v);
            let ident = format_ident!("var_{}", names::value_name(v));
            quote!(#ident)
        });
        let texts = r
            .params
            .iter()
            .map(|f| format_ident!("var_{}", names::value_name(&f.json_name)));
        let pattern = match params.as_slice() {
            [one] => quote!(#one),
            _ => quote!((#(#params),*)),
        };
        quote! {
            if let Some([#(#bindings),*]) = rt::uri_template::capture(#template, uri).as_deref() {
                let #pattern = match Self::#decode(#(#texts),*) {
                    Ok(values) => values,
                    Err(e) => return Some(rt::ready(Err(e.into()))),
                };
                #run
            }
        }
    }

    /// Reads a resource template's variables (their texts, in parameter order).
    /// `method`: the resource's Rust method name.
    fn resource_decoder(&self, r: &Resource, method: &str) -> TokenStream {
        let name = decoder_name(method);
        let ty = self.args_type(&r.params);
        let locals: Vec<Ident> = r
            .params
            .iter()
            .map(|f| names::local_ident(&f.name))
            .collect();
        let reads = r.params.iter().zip(&locals).map(|(f, local)| {
            let wire = Literal::string(&f.json_name);
            let (decode, checks) = self.text_field(f, &quote!(&path));
            let nullable = matches!(f.ty, Type::Nullable { .. });
            let value = match (checks.is_empty(), nullable) {
                (true, false) => quote!(#decode?),
                (true, true) => quote!(Some(#decode?)),
                (false, false) => quote!({ let value = #decode?; #checks value }),
                (false, true) => quote!({ let value = #decode?; #checks Some(value) }),
            };
            quote! {
                let #local = {
                    let path = path.field(#wire);
                    let text = #local;
                    #value
                };
            }
        });
        let done = args_tuple(locals.iter().map(|l| quote!(#l)).collect());
        let result = self.std("Result");
        let doc = format!(" The variables of `{}`.", r.uri);
        quote! {
            #[doc = #doc]
            fn #name(#(#locals: &str),*) -> #result<#ty, rt::ArgError> {
                let path = &rt::Path::Root;
                #(#reads)*
                Ok(#done)
            }
        }
    }

    fn complete_dispatch(&self, service: &Service) -> TokenStream {
        let mut refs = Vec::new();
        for r in service.resources.iter().filter(|r| r.is_template) {
            let uri = Literal::string(&r.uri);
            refs.push(quote!(("ref/resource", #uri)));
        }
        for p in &service.prompts {
            let name = Literal::string(&p.name);
            refs.push(quote!(("ref/prompt", #name)));
        }
        let option = self.std("Option");
        let result = self.std("Result");
        quote! {
            fn has_completions(&self) -> bool {
                true
            }

            fn complete(
                self: rt::Arc<Self>,
                request: &rt::CompletionRequest,
                ctx: rt::RequestContext,
            ) -> #option<rt::BoxFuture<#result<rt::Completion, rt::RpcError>>> {
                match (request.ref_type.as_str(), request.ref_name.as_str()) {
                    #(#refs)|* => {
                        let request = request.clone();
                        Some(Box::pin(async move { self.inner.complete(ctx, request).await }))
                    }
                    _ => None,
                }
            }
        }
    }
}

fn strip_nullable(ty: &Type) -> &Type {
    match ty {
        Type::Nullable { inner } => inner,
        other => other,
    }
}

fn enum_of(ty: &Type) -> Option<(&str, &str)> {
    match ty {
        Type::Nullable { inner } => enum_of(inner),
        Type::Named {
            package,
            name,
            def: DefKind::Enum,
        } => Some((package, name)),
        _ => None,
    }
}

/// A service answers `completion/complete` when it has a prompt or a resource template.
pub fn has_completions(service: &Service) -> bool {
    !service.prompts.is_empty() || service.resources.iter().any(|r| r.is_template)
}

/// The Rust method of a tool, resource or prompt (`kind`) of `service`: its name in
/// snake_case. Tools, resources and prompts are separate namespaces in a `.tool` file but
/// one trait in Rust: a resource whose method name a tool has, or a prompt whose method name
/// a tool or resource has, gets `_resource` or `_prompt` appended (only then, so nothing else
/// changes). Two of one kind with one Rust name are E1101.
pub fn method_name(service: &Service, kind: &str, ident: &str) -> String {
    let base = names::value_name(ident);
    let same = |other: &String| names::value_name(other) == base;
    let taken = match kind {
        "resource" => service.tools.iter().any(|t| same(&t.ident)),
        "prompt" => {
            service.tools.iter().any(|t| same(&t.ident))
                || service
                    .resources
                    .iter()
                    .any(|r| method_name(service, "resource", &r.ident) == base)
        }
        _ => false,
    };
    if taken {
        format!("{base}_{kind}")
    } else {
        base
    }
}

/// The arguments struct of a tool with parameters: `get_weather` → `GetWeatherArgs`.
pub fn args_name(tool: &Tool) -> Option<String> {
    (!tool.params.is_empty()).then(|| format!("{}Args", names::type_name(&tool.ident)))
}

fn decoder_name(ident: &str) -> Ident {
    format_ident!("decode_{}", names::value_name(ident))
}

/// The decoded arguments: the one value, or a tuple of them.
fn args_tuple(finals: Vec<TokenStream>) -> TokenStream {
    match finals.as_slice() {
        [one] => one.clone(),
        _ => quote!((#(#finals),*)),
    }
}

/// `fn tools(&self) -> &[rt::ToolDef] { static TOOLS: … }`, or nothing for an empty list.
fn listing_fn(
    name: TokenStream,
    def: TokenStream,
    listings: &[Listing],
    entry: impl Fn(&Listing) -> TokenStream,
) -> Option<TokenStream> {
    if listings.is_empty() {
        return None;
    }
    let count = Literal::usize_unsuffixed(listings.len());
    let entries = listings.iter().map(entry);
    let upper = format_ident!("{}", name.to_string().to_uppercase());
    Some(quote! {
        fn #name(&self) -> &[#def] {
            static #upper: [#def; #count] = [#(#entries),*];
            &#upper
        }
    })
}

/// `def.scopes(&["a", "b"])` for an item declared with `@scopes`; `def` when it needs none.
fn scoped(def: TokenStream, scopes: Option<&Vec<String>>) -> TokenStream {
    match scopes {
        Some(scopes) if !scopes.is_empty() => quote!(#def.scopes(&[#(#scopes),*])),
        _ => def,
    }
}

/// `Service::task_support` for the service's `@task` tools; nothing when it has none.
fn task_support(service: &Service) -> Option<TokenStream> {
    let arms: Vec<TokenStream> = service
        .tools
        .iter()
        .filter_map(|t| {
            let wire = Literal::string(&t.name);
            let mode = match t.task? {
                TaskMode::Optional => quote!(Optional),
                TaskMode::Required => quote!(Required),
            };
            Some(quote!(#wire => Some(rt::TaskSupport::#mode),))
        })
        .collect();
    (!arms.is_empty()).then(|| {
        quote! {
            fn task_support(&self, name: &str) -> Option<rt::TaskSupport> {
                match name {
                    #(#arms)*
                    _ => None,
                }
            }
        }
    })
}
