//! Per service: the handler trait, `XxxServer<T>` and its `Service` impl. This module holds
//! the glue (the trait, the server, the listings, the input types' shape); one module per MCP
//! kind writes the rest: [`tools`], [`resources`], [`prompts`], [`completion`].
//!
//! Every handler of a tool, prompt or resource template takes one input struct (`XxxArgs`),
//! decoded and checked, whose fields are the parameters: an implementer destructures it
//! with `..`, so a parameter added with a default does not break the implementation.

mod client;
mod completion;
mod forward;
mod prompts;
mod resources;
mod tools;

use std::collections::HashMap;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use toolidl::model::{
    Field, Keyword, Member, MemberKind, Primitive, ResultText, Returns, Service, Type,
};

use super::context::{Context, doc_attrs, field_summary, format_of};
use crate::listings::{Listing, ServiceListings};
use crate::naming::{self as names, Methods};
use crate::profile::Profile;
pub use completion::{completable, has_completions};

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

/// One handler of the trait: its Rust method name, its docs, its input struct (none for a
/// resource with a fixed URI), what it returns and its error type.
struct Handler {
    method: String,
    docs: TokenStream,
    input: Option<Ident>,
    ok: TokenStream,
    error: TokenStream,
    /// A tool's check of its result (`GetWeatherReturns`), bound on the method's future.
    returns: Option<Ident>,
}

impl Context<'_> {
    pub fn service(&self, service: &Service, listings: &ServiceListings) -> TokenStream {
        let methods = Methods::of(service);
        let inputs = service.members.iter().filter_map(|m| match &m.kind {
            MemberKind::Tool(tool) => Some(self.tool_input(m, tool)),
            MemberKind::Template(r) => Some(self.resource_input(m, r, &methods.name(m))),
            MemberKind::Resource(_) => None,
            MemberKind::Prompt => Some(self.prompt_input(m, &methods.name(m))),
        });
        let completion = completion::completable(service);
        let completable =
            (!completion.is_empty()).then(|| self.completable_enum(service, &completion));
        let trait_ = self.handler_trait(service, &methods, &completion);
        let checks = self.result_checks(service, &methods);
        let server = self.server(service, &methods, listings);
        quote!(#(#inputs)* #completable #trait_ #(#checks)* #server)
    }

    /// The input struct of a handler: `name`, documented with `doc` and the `..` advice, one
    /// public field per parameter, each documented from the model.
    fn input_struct(&self, name: &Ident, doc: &str, params: &[Field]) -> TokenStream {
        let fields = params.iter().map(|f| {
            let mut lines = super::context::field_doc(f);
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(field_summary(f));
            let docs = doc_attrs(&lines);
            let ident = names::value_ident(&f.name);
            let ty = self.field_type(f, false);
            let serde = crate::rust::items::serde_field_attrs(f);
            quote!(#docs #serde pub #ident: #ty,)
        });
        let pattern = match params.first() {
            Some(f) => format!("{name} {{ {}, .. }}: {name}", names::value_ident(&f.name)),
            None => format!("{name} {{ .. }}: {name}"),
        };
        let docs = doc_attrs(&[
            doc.to_owned(),
            String::new(),
            format!("Destructure it with `..` in the handler's signature (`{pattern}`):"),
            "a parameter added later with a default is then a field the handler does not name,"
                .into(),
            "and the implementation compiles on.".into(),
        ]);
        quote! {
            #docs
            #[derive(Debug, Clone, PartialEq, rt::serde::Serialize)]
            #[serde(crate = "rt::serde")]
            pub struct #name {
                #(#fields)*
            }
        }
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

    /// A method's docs: its doc comment, else a line naming what it serves.
    fn method_docs(&self, doc: &[String], what: &str) -> TokenStream {
        if doc.is_empty() {
            doc_attrs(&[what.to_owned()])
        } else {
            doc_attrs(doc)
        }
    }

    fn handler_method(&self, h: Handler) -> TokenStream {
        let Handler {
            method,
            docs,
            input,
            ok,
            error,
            returns,
        } = h;
        let name = names::value_ident(&method);
        let result = self.std("Result");
        let send = self.std("Send");
        let input = input.map(|ty| quote!(input: #ty,));
        let returns = returns.map(|check| quote!(+ rt::Returns<dyn #check>));
        quote! {
            #docs
            fn #name(
                &self,
                ctx: rt::RequestContext,
                #input
            ) -> impl ::core::future::Future<Output = #result<#ok, #error>> #returns + #send;
        }
    }

    /// The trait's handlers, in the order of the members: tools, resources, prompts.
    fn handlers(&self, service: &Service, methods: &Methods) -> Vec<Handler> {
        let handler = |m: &Member| {
            let method = methods.name(m);
            let input = names::member_input_name(m, &method).map(|name| names::plain(&name));
            let (docs, error) = match &m.kind {
                MemberKind::Tool(_) => (format!("The tool `{}`.", m.name), quote!(rt::ToolError)),
                MemberKind::Resource(r) | MemberKind::Template(r) => (
                    format!("Reads the resource `{}`.", r.uri),
                    quote!(rt::RpcError),
                ),
                MemberKind::Prompt => (
                    format!("Renders the prompt `{}`.", m.name),
                    quote!(rt::RpcError),
                ),
            };
            let returns = matches!(m.kind, MemberKind::Tool(_))
                .then(|| names::plain(&names::tool_returns_name(m)));
            Handler {
                method,
                docs: self.method_docs(&m.doc, &docs),
                input,
                returns,
                ok: match &m.kind {
                    // `@text(handler)`: the value, and the text the handler chooses per call.
                    MemberKind::Tool(t) if t.text == Some(ResultText::Handler) => {
                        let value = self.value_type(&m.returns);
                        quote!(rt::WithText<#value>)
                    }
                    _ => self.value_type(&m.returns),
                },
                error,
            }
        };
        service.members.iter().map(handler).collect()
    }

    /// Per tool, the check of what its handler returns: a trait implemented for the one
    /// output the tool declares, whose message names the tool and its declared result when a
    /// handler returns anything else (see `rt::Returns`).
    fn result_checks(&self, service: &Service, methods: &Methods) -> Vec<TokenStream> {
        let trait_ = names::type_ident(&service.name);
        let handlers = self.handlers(service, methods);
        service
            .members
            .iter()
            .zip(handlers)
            .filter(|(m, _)| matches!(m.kind, MemberKind::Tool(_)))
            .filter_map(|(m, h)| {
                let check = h.returns?;
                let declared = match &m.returns {
                    Returns::Nothing => "no result".to_string(),
                    Returns::Content => "`-> content`".to_string(),
                    Returns::CallResult => "`-> call_result`".to_string(),
                    Returns::Value { ty } => format!("`-> {ty}`"),
                };
                let ok = &h.ok;
                let rust = rust_text(&quote!(Result<#ok, ToolError>));
                let message = format!(
                    "the tool `{}` is declared with {declared}: its handler `{trait_}::{}` returns `{rust}`, not `{{Self}}`",
                    m.name, h.method
                );
                let label = format!("not what the tool `{}` returns", m.name);
                let doc = format!(
                    " What the handler of the tool `{}` returns: `{rust}`. A handler that returns anything else fails to compile with a message naming the tool.",
                    m.name
                );
                let result = self.std("Result");
                Some(quote! {
                    #[doc = #doc]
                    #[diagnostic::on_unimplemented(message = #message, label = #label)]
                    pub trait #check {}

                    impl #check for #result<#ok, rt::ToolError> {}

                    impl<O: #check> rt::Accepts<O> for dyn #check {}
                })
            })
            .collect()
    }

    fn handler_trait(
        &self,
        service: &Service,
        methods: &Methods,
        completion: &[completion::Completable<'_>],
    ) -> TokenStream {
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
        let handlers = self
            .handlers(service, methods)
            .into_iter()
            .map(|h| self.handler_method(h));
        let complete = (!completion.is_empty()).then(|| self.complete_method(service));
        let send = self.std("Send");
        let sync = self.std("Sync");
        quote! {
            #docs
            pub trait #ident: #send + #sync + 'static {
                #(#handlers)*
                #complete
            }
        }
    }

    fn server(
        &self,
        service: &Service,
        methods: &Methods,
        listings: &ServiceListings,
    ) -> TokenStream {
        let trait_ident = names::type_ident(&service.name);
        let server = names::plain(&names::server_name(&service.name));
        let doc = format!(
            " Serves a [`{trait_ident}`] implementation: its listings, argument decoding and dispatch."
        );
        // Resource templates' decoders, then prompts' (the order of the members).
        let decoders = service
            .members
            .iter()
            .filter(|m| !m.params.is_empty())
            .filter_map(|m| match &m.kind {
                MemberKind::Template(r) => Some(self.resource_decoder(m, r, &methods.name(m))),
                MemberKind::Prompt => Some(self.prompt_decoder(m, &methods.name(m))),
                MemberKind::Tool(_) | MemberKind::Resource(_) => None,
            });
        let service_impl = self.service_impl(service, methods, listings);
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

                #(#decoders)*
            }

            impl<T> ::core::clone::Clone for #server<T> {
                fn clone(&self) -> Self {
                    #server { inner: rt::Arc::clone(&self.inner) }
                }
            }

            #service_impl
        }
    }

    fn service_impl(
        &self,
        service: &Service,
        methods: &Methods,
        listings: &ServiceListings,
    ) -> TokenStream {
        let trait_ident = names::type_ident(&service.name);
        let server = names::plain(&names::server_name(&service.name));
        // The member each listing comes from, by keyword and declared name.
        let declared: HashMap<(Keyword, &str), &Member> = service
            .members
            .iter()
            .map(|m| ((m.kind.keyword(), m.ident.as_str()), m))
            .collect();
        let member =
            |keyword: Keyword, l: &Listing| declared.get(&(keyword, l.ident.as_str())).copied();
        let tools = listing_fn(
            quote!(tools),
            quote!(rt::ToolDef),
            &listings.tools,
            |l, json| {
                let name = Literal::string(&l.name);
                let tool = member(Keyword::Tool, l);
                let def = scoped(
                    quote!(rt::ToolDef::new(#name, #json)),
                    tool.map(|t| &t.scopes),
                );
                // A null result is listed and sent per revision (`ToolDef::null_result`).
                let def = match tool.and_then(|t| t.returns.null_without_structured_content()) {
                    Some(_) => quote!(#def.null_result()),
                    None => def,
                };
                // Each profile's listing is derived from this one by the runtime
                // (`toolidl_formats::publish`), as `toolidl lint` and `toolidl schema` publish it.
                quote!(#def.derive_profiles())
            },
        );
        let default_profile = (self.options.profile != Profile::Standard).then(|| {
            let profile = format_ident!("{}", self.options.profile.rust_name());
            quote! {
                fn default_profile(&self) -> rt::Profile {
                    rt::Profile::#profile
                }
            }
        });
        let call_tool = self.call_tool(service);
        let task_support = tools::task_support(service);
        let def = |keyword: Keyword| {
            move |l: &Listing, json: &Ident| {
                scoped(
                    quote!(rt::ListingDef::new(#json)),
                    member(keyword, l).map(|m| &m.scopes),
                )
            }
        };
        let resources = listing_fn(
            quote!(resources),
            quote!(rt::ListingDef),
            &listings.resources,
            def(Keyword::Resource),
        );
        let templates = listing_fn(
            quote!(resource_templates),
            quote!(rt::ListingDef),
            &listings.resource_templates,
            def(Keyword::Resource),
        );
        let prompts = listing_fn(
            quote!(prompts),
            quote!(rt::ListingDef),
            &listings.prompts,
            def(Keyword::Prompt),
        );
        let has = |keyword| service.members_of(keyword).next().is_some();
        let read = has(Keyword::Resource).then(|| self.read_resource(service, methods, listings));
        let get_prompt = has(Keyword::Prompt).then(|| self.get_prompt(service, methods));
        let complete = has_completions(service).then(|| self.complete_dispatch(service));
        quote! {
            impl<T: #trait_ident> rt::Service for #server<T> {
                #tools
                #default_profile
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

    /// An expression of type `T` reading the text `text` (a `&str`) at `path` as a value of
    /// `ty` (the inner type of a `T?`), returning the `ArgError` with `?`: a prompt argument
    /// or a URI variable.
    fn text_expr(&self, ty: &Type, path: &TokenStream) -> TokenStream {
        match ty {
            Type::Nullable { inner } => self.text_expr(inner, path),
            Type::Named {
                package,
                name,
                def: toolidl::model::DefKind::Enum,
            } => {
                let ty = self.type_path(package, name);
                quote!(#ty::ALL[rt::args::text_member(text, #path, &#ty::NAMES)?])
            }
            Type::Primitive { name } => match format_of(*name) {
                Some(format) if !self.is_typed(*name) => {
                    quote!(rt::args::text_formatted(text, #path, #format)?)
                }
                _ => {
                    let rust = self.primitive(*name);
                    quote!(rt::args::text::<#rust>(text, #path)?)
                }
            },
            // The resolver admits only text-like types here.
            other => {
                let rust = self.rust_type(other, false);
                quote!(rt::args::text::<#rust>(text, #path)?)
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
        let checks = self.text_checks(&inner, &quote!(text));
        (decode, checks)
    }
}

/// `def.scopes(&["a", "b"])` for an item declared with `@scopes`; `def` when it needs none.
fn scoped(def: TokenStream, scopes: Option<&Vec<String>>) -> TokenStream {
    match scopes {
        Some(scopes) if !scopes.is_empty() => quote!(#def.scopes(&[#(#scopes),*])),
        _ => def,
    }
}

/// `fn tools(&self) -> &[rt::ToolDef] { const GET_WEATHER: &str = "{…}"; static TOOLS: … }`,
/// or nothing for an empty list: each listing's JSON a `const` named after the member, so
/// that the table reads one entry a line (`entry` gets the listing and its constant).
fn listing_fn(
    name: TokenStream,
    def: TokenStream,
    listings: &[Listing],
    entry: impl Fn(&Listing, &Ident) -> TokenStream,
) -> Option<TokenStream> {
    if listings.is_empty() {
        return None;
    }
    let count = Literal::usize_unsuffixed(listings.len());
    let upper = name.to_string().to_uppercase();
    let consts: Vec<Ident> = listings
        .iter()
        .map(|l| {
            let shouted = names::value_name(&l.ident).to_uppercase();
            // The table's own name is taken.
            match shouted == upper {
                true => format_ident!("{shouted}_"),
                false => format_ident!("{shouted}"),
            }
        })
        .collect();
    let jsons = listings.iter().map(|l| raw_string(&l.json()));
    let entries = listings.iter().zip(&consts).map(|(l, c)| entry(l, c));
    let upper = format_ident!("{upper}");
    Some(quote! {
        fn #name(&self) -> &[#def] {
            #(const #consts: &str = #jsons;)*
            static #upper: [#def; #count] = [#(#entries),*];
            &#upper
        }
    })
}

/// Rust tokens as a person writes them: `Result<Vec<Forecast>, ToolError>`.
fn rust_text(tokens: &TokenStream) -> String {
    tokens
        .to_string()
        .replace(" < ", "<")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace("rt::", "")
}
