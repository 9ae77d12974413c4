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

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use toolidl::model::{Field, Primitive, Returns, Service, Type};

use super::context::{Context, doc_attrs, field_summary};
use super::decode::format_of;
use super::names;
use crate::listings::{Listing, ServiceListings};
use crate::profile::Profile;
pub use client::client_name;
pub use completion::{argument_enum_name, completable, has_completions};
pub use forward::{forward_name, requests_name};

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
}

impl Context<'_> {
    pub fn service(&self, service: &Service, listings: &ServiceListings) -> TokenStream {
        let tool_inputs = service.tools.iter().map(|t| self.tool_input(t));
        let resource_inputs = service
            .resources
            .iter()
            .filter(|r| r.is_template)
            .map(|r| self.resource_input(service, r));
        let prompt_inputs = service
            .prompts
            .iter()
            .map(|p| self.prompt_input(service, p));
        let completion = completion::completable(service);
        let completable =
            (!completion.is_empty()).then(|| self.completable_enum(service, &completion));
        let trait_ = self.handler_trait(service, &completion);
        let server = self.server(service, listings);
        quote!(#(#tool_inputs)* #(#resource_inputs)* #(#prompt_inputs)* #completable #trait_ #server)
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
        } = h;
        let name = names::value_ident(&method);
        let result = self.std("Result");
        let send = self.std("Send");
        let input = input.map(|ty| quote!(input: #ty,));
        quote! {
            #docs
            fn #name(
                &self,
                ctx: rt::RequestContext,
                #input
            ) -> impl ::core::future::Future<Output = #result<#ok, #error>> + #send;
        }
    }

    /// The trait's handlers, in declaration order: tools, resources, prompts.
    fn handlers(&self, service: &Service) -> Vec<Handler> {
        let tools = service.tools.iter().map(|t| Handler {
            method: t.ident.clone(),
            docs: self.method_docs(&t.doc, &format!("The tool `{}`.", t.name)),
            input: Some(names::plain(&tool_input_name(t))),
            ok: self.value_type(&t.returns),
            error: quote!(rt::ToolError),
        });
        let resources = service.resources.iter().map(|r| {
            let method = method_name(service, "resource", &r.ident);
            let input = r.is_template.then(|| names::plain(&input_name(&method)));
            Handler {
                docs: self.method_docs(&r.doc, &format!("Reads the resource `{}`.", r.uri)),
                method,
                input,
                ok: self.value_type(&r.returns),
                error: quote!(rt::RpcError),
            }
        });
        let prompts = service.prompts.iter().map(|p| {
            let method = method_name(service, "prompt", &p.ident);
            Handler {
                docs: self.method_docs(&p.doc, &format!("Renders the prompt `{}`.", p.name)),
                input: Some(names::plain(&input_name(&method))),
                method,
                ok: self.value_type(&p.returns),
                error: quote!(rt::RpcError),
            }
        });
        tools.chain(resources).chain(prompts).collect()
    }

    fn handler_trait(
        &self,
        service: &Service,
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
            .handlers(service)
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

            #service_impl
        }
    }

    fn service_impl(&self, service: &Service, listings: &ServiceListings) -> TokenStream {
        let trait_ident = names::type_ident(&service.name);
        let server = names::plain(&names::server_name(&service.name));
        let tools = listing_fn(quote!(tools), quote!(rt::ToolDef), &listings.tools, |l| {
            let name = Literal::string(&l.name);
            let json = raw_string(&l.json());
            let tool = service.tools.iter().find(|t| t.ident == l.ident);
            let def = scoped(
                quote!(rt::ToolDef::new(#name, #json)),
                tool.map(|t| &t.scopes),
            );
            // A null result is listed and sent per revision (`ToolDef::null_result`).
            let def = match tool.and_then(|t| t.returns.null_without_structured_content()) {
                Some(_) => quote!(#def.null_result()),
                None => def,
            };
            let key = (service.name.clone(), l.ident.clone());
            match self.tool_variants.get(&key) {
                Some(variants) => {
                    let variants = variants.iter().map(|(profile, name, json)| {
                        let profile = format_ident!("{}", profile.rust_name());
                        let name = Literal::string(name);
                        let json = raw_string(json);
                        quote!(rt::ToolVariant::new(rt::Profile::#profile, #name, #json))
                    });
                    quote!(#def.variants(&[#(#variants),*]))
                }
                None => def,
            }
        });
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

    /// An expression `Result<T, ArgError>` reading the text `text` (a `&str`) at `path` as a
    /// value of `ty` (the inner type of a `T?`): a prompt argument or a URI variable.
    fn text_expr(&self, ty: &Type, path: &TokenStream) -> TokenStream {
        match ty {
            Type::Nullable { inner } => self.text_expr(inner, path),
            Type::Named {
                package,
                name,
                def: toolidl::model::DefKind::Enum,
            } => {
                let ty = self.type_path(package, name);
                quote!(rt::args::text_member(text, #path, &#ty::NAMES).map(|i| #ty::ALL[i]))
            }
            Type::Primitive { name } => match format_of(*name) {
                Some(format) if !self.is_typed(*name) => {
                    quote!(rt::args::text_formatted(text, #path, #format))
                }
                _ => {
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
        let checks = self.text_checks(&inner, &quote!(text));
        (decode, checks)
    }
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

/// The input struct of a handler, by its Rust method name: `get_weather` → `GetWeatherArgs`.
pub fn input_name(method: &str) -> String {
    format!("{}Args", names::type_name(method))
}

/// The input struct of a tool (`GetWeatherArgs`).
pub fn tool_input_name(tool: &toolidl::model::Tool) -> String {
    input_name(&tool.ident)
}

/// The input structs of a service's handlers, each with the member it belongs to (`tool
/// `get_weather``), in declaration order: for E1101.
pub fn input_names(service: &Service) -> Vec<(String, String)> {
    let tools = service
        .tools
        .iter()
        .map(|t| (format!("tool `{}`", t.ident), tool_input_name(t)));
    let resources = service.resources.iter().filter(|r| r.is_template).map(|r| {
        let method = method_name(service, "resource", &r.ident);
        (format!("resource `{}`", r.ident), input_name(&method))
    });
    let prompts = service.prompts.iter().map(|p| {
        let method = method_name(service, "prompt", &p.ident);
        (format!("prompt `{}`", p.ident), input_name(&method))
    });
    tools.chain(resources).chain(prompts).collect()
}

fn decoder_name(ident: &str) -> Ident {
    format_ident!("decode_{}", names::value_name(ident))
}

/// `def.scopes(&["a", "b"])` for an item declared with `@scopes`; `def` when it needs none.
fn scoped(def: TokenStream, scopes: Option<&Vec<String>>) -> TokenStream {
    match scopes {
        Some(scopes) if !scopes.is_empty() => quote!(#def.scopes(&[#(#scopes),*])),
        _ => def,
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
