//! `XxxForward` and `XxxRequests` (option `forward`, a binding from an OpenAPI import): per
//! bound tool, a handler that sends the checked input to the HTTP API it was imported from
//! and reads the answer as the declared result (the runtime's `forward` feature).
//!
//! - `XxxRequests`: the API's servers and security schemes, `upstream()` (a builder with
//!   both), and one `async fn` per bound tool building the request (`rt::forward::Call`).
//! - `XxxForward`: a trait whose only required method is `upstream`; each bound tool's
//!   method defaults to its `XxxRequests` function, so an implementation overrides one to
//!   wrap or replace it. Tools without a binding, resources and prompts are required.
//! - `impl<T: XxxForward> Xxx for T`: a forwarder serves as the service's implementation,
//!   and `rt::forward::Upstream` itself is one when every member is bound.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use toolidl::model::{Field, Member, Primitive, Returns, Service, Type};

use super::Handler;
use crate::forward::{Binding, BodyContent, Location, Operation, Scheme, Style};
use crate::naming::{self as names, Methods, forward_name, requests_name, tool_input_name};
use crate::rust::context::{Context, doc_attrs};
use crate::rust::error::GenerateError;

impl Context<'_> {
    pub fn forward(
        &self,
        service: &Service,
        binding: &Binding,
    ) -> Result<TokenStream, GenerateError> {
        let bound: Vec<(&Member, &Operation)> = binding
            .operations
            .iter()
            .map(|op| {
                service
                    .tools()
                    .find(|(t, _)| t.name == op.tool)
                    .map(|(t, _)| (t, op))
                    .ok_or_else(|| GenerateError {
                        message: format!(
                            "the forward binding of service `{}` binds the tool `{}`, which the service does not have",
                            service.name, op.tool
                        ),
                    })
            })
            .collect::<Result<_, _>>()?;
        let trait_ident = names::type_ident(&service.name);
        let forward = names::plain(&forward_name(&service.name));
        let requests = names::plain(&requests_name(&service.name));
        let handlers = self.handlers(service, &Methods::of(service));
        let mut trait_methods = Vec::new();
        let mut delegations = Vec::new();
        let mut all_bound = true;
        for (i, handler) in handlers.into_iter().enumerate() {
            let tool = service.members.get(i).filter(|m| m.tool().is_some());
            let operation = tool.and_then(|t| {
                bound
                    .iter()
                    .find(|(b, _)| b.ident == t.ident)
                    .map(|(_, o)| *o)
            });
            if names::value_name(&handler.method) == "upstream" {
                return Err(GenerateError {
                    message: format!(
                        "service `{}`: the member `{}` would be the method `upstream` of `{}`, which it has already; rename it",
                        service.name,
                        handler.method,
                        forward_name(&service.name)
                    ),
                });
            }
            let body = operation.map(|_| {
                let name = names::value_ident(&handler.method);
                let input = handler.input.as_ref().map(|_| quote!(input));
                quote!({ #requests::#name(self.upstream(), ctx, #input) })
            });
            all_bound &= body.is_some();
            delegations.push(self.delegation(&handler, &forward));
            trait_methods.push(self.method_with(handler, body));
        }
        let functions = bound
            .iter()
            .map(|(tool, op)| self.request_fn(service, tool, op))
            .collect::<Result<Vec<_>, _>>()?;
        let send = self.std("Send");
        let sync = self.std("Sync");
        let api = binding.api.as_deref().map_or_else(
            || "the API they were imported from".to_owned(),
            |a| format!("the API they were imported from ({a})"),
        );
        let forward_docs = doc_attrs(&[
            format!("Forwards the tools of [`{trait_ident}`] to {api}."),
            String::new(),
            "Implement it (only [`upstream`](Self::upstream) is required): the implementation"
                .into(),
            format!(
                "is then a [`{trait_ident}`], whose bound tools call the API through [`{requests}`]."
            ),
            "Override a tool's method to wrap or replace the generated handler, which stays".into(),
            format!("callable as the function of the same name of [`{requests}`]."),
        ]);
        let servers = binding.servers.iter().map(|s| Literal::string(s));
        let first = binding.servers.first().map_or(String::new(), Clone::clone);
        let first = Literal::string(&first);
        let schemes = binding.schemes.iter().map(scheme);
        let upstream_impl = all_bound.then(|| {
            quote! {
                /// An [`Upstream`](rt::forward::Upstream) forwards every tool as generated.
                impl #forward for rt::forward::Upstream {
                    fn upstream(&self) -> &rt::forward::Upstream {
                        self
                    }
                }
            }
        });
        let requests_docs = doc_attrs(&[format!(
            "The requests the tools of [`{trait_ident}`] send to {api}."
        )]);
        Ok(quote! {
            #forward_docs
            pub trait #forward: #send + #sync + 'static {
                /// The API the generated handlers call.
                fn upstream(&self) -> &rt::forward::Upstream;

                #(#trait_methods)*
            }

            impl<T: #forward> #trait_ident for T {
                #(#delegations)*
            }

            #upstream_impl

            #requests_docs
            pub struct #requests;

            impl #requests {
                /// The API's server URLs (its `servers`), the first one the default base URL.
                pub const SERVERS: &'static [&'static str] = &[#(#servers),*];

                /// The API's security schemes (its `components.securitySchemes`).
                pub const SCHEMES: &'static [rt::forward::Scheme] = &[#(#schemes),*];

                /// An [`Upstream`](rt::forward::Upstream) to configure: the first of
                /// [`SERVERS`](Self::SERVERS) as its base URL, [`SCHEMES`](Self::SCHEMES) as
                /// its security schemes.
                pub fn upstream() -> rt::forward::UpstreamBuilder {
                    rt::forward::Upstream::builder(#first, Self::SCHEMES)
                }

                #(#functions)*
            }
        })
    }

    /// A handler of the forwarding trait: declared (no `body`), or with a default body.
    fn method_with(&self, h: Handler, body: Option<TokenStream>) -> TokenStream {
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
        let body = body.unwrap_or_else(|| quote!(;));
        let returns = returns.map(|check| quote!(+ rt::Returns<dyn #check>));
        quote! {
            #docs
            fn #name(
                &self,
                ctx: rt::RequestContext,
                #input
            ) -> impl ::core::future::Future<Output = #result<#ok, #error>> #returns + #send #body
        }
    }

    /// The service trait's method, answered by the forwarding trait's.
    fn delegation(&self, h: &Handler, forward: &proc_macro2::Ident) -> TokenStream {
        let name = names::value_ident(&h.method);
        let (ok, error) = (&h.ok, &h.error);
        let result = self.std("Result");
        let send = self.std("Send");
        let (param, arg) = match &h.input {
            Some(ty) => (Some(quote!(input: #ty,)), Some(quote!(input))),
            None => (None, None),
        };
        quote! {
            fn #name(
                &self,
                ctx: rt::RequestContext,
                #param
            ) -> impl ::core::future::Future<Output = #result<#ok, #error>> + #send {
                #forward::#name(self, ctx, #arg)
            }
        }
    }

    /// `pub async fn add_pet(upstream, ctx, input) -> Result<Pet, rt::ToolError>`.
    fn request_fn(
        &self,
        service: &Service,
        tool: &Member,
        op: &Operation,
    ) -> Result<TokenStream, GenerateError> {
        let fail = |what: String| GenerateError {
            message: format!("service `{}`, tool `{}`: {what}", service.name, tool.name),
        };
        let param = |argument: &str| -> Result<&Field, GenerateError> {
            tool.params
                .iter()
                .find(|p| p.json_name == argument)
                .ok_or_else(|| fail(format!("the forward binding sends the argument `{argument}`, which the tool does not have")))
        };
        let mut sent: Vec<&str> = Vec::new();
        let mut steps = Vec::new();
        if !op.security.is_empty() {
            let alternatives = op.security.iter().map(|names| {
                let names = names.iter().map(|n| Literal::string(n));
                quote!(&[#(#names),*])
            });
            steps.push(quote!(call.security(&[#(#alternatives),*]);));
        }
        for p in &op.parameters {
            let field = param(&p.argument)?;
            sent.push(&field.json_name);
            let value = names::value_ident(&field.name);
            let name = Literal::string(&p.name);
            let style = style(p.style);
            let explode = p.explode;
            let method = match (p.location, p.allow_reserved) {
                (Location::Path, _) => {
                    if !op.path.contains(&format!("{{{}}}", p.name)) {
                        return Err(fail(format!(
                            "the path `{}` has no variable `{{{}}}`",
                            op.path, p.name
                        )));
                    }
                    quote!(path)
                }
                (Location::Query, false) => quote!(query),
                (Location::Query, true) => quote!(query_reserved),
                (Location::Header, _) => quote!(header),
                (Location::Cookie, _) => quote!(cookie),
            };
            steps.push(quote!(call.#method(#name, #style, #explode, &input.#value);));
        }
        for variable in path_variables(&op.path) {
            if !op
                .parameters
                .iter()
                .any(|p| p.location == Location::Path && p.name == variable)
            {
                return Err(fail(format!(
                    "the path `{}` has the variable `{{{variable}}}`, which no parameter fills",
                    op.path
                )));
            }
        }
        if let Some(body) = &op.body {
            let media = Literal::string(&body.media_type);
            steps.push(quote!(call.media_type(#media);));
            match &body.content {
                BodyContent::Fields(fields) => {
                    for (argument, member) in fields {
                        let field = param(argument)?;
                        sent.push(&field.json_name);
                        let value = names::value_ident(&field.name);
                        let member = Literal::string(member);
                        steps.push(if field.is_optional() {
                            quote! {
                                if let Some(value) = &input.#value {
                                    call.field(#member, value);
                                }
                            }
                        } else {
                            quote!(call.field(#member, &input.#value);)
                        });
                    }
                }
                BodyContent::Value(argument) => {
                    let field = param(argument)?;
                    sent.push(&field.json_name);
                    let value = names::value_ident(&field.name);
                    let media = body.media_type.as_str();
                    let send = if is_json(media) {
                        quote!(body)
                    } else if base(&field.ty) == Some(Primitive::Bytes) {
                        quote!(bytes)
                    } else if base(&field.ty) == Some(Primitive::String) {
                        quote!(text)
                    } else {
                        return Err(fail(format!(
                            "its body `{argument}` is sent as {media}, which needs a `bytes` or `string` parameter"
                        )));
                    };
                    steps.push(
                        if field.is_optional()
                            || (matches!(field.ty, Type::Nullable { .. }) && !is_json(media))
                        {
                            quote! {
                                if let Some(body) = &input.#value {
                                    call.#send(body);
                                }
                            }
                        } else {
                            quote!(call.#send(&input.#value);)
                        },
                    );
                }
            }
        }
        if let Some(unsent) = tool
            .params
            .iter()
            .find(|p| !sent.contains(&p.json_name.as_str()))
        {
            return Err(fail(format!(
                "the parameter `{}` is not in the forward binding: say where it is sent, or remove it",
                unsent.json_name
            )));
        }
        let accept = op.response.media_type.clone().or_else(|| {
            matches!(op.response.read, crate::forward::Read::Json)
                .then(|| "application/json".to_owned())
        });
        if let Some(accept) = accept {
            let accept = Literal::string(&accept);
            steps.push(quote!(call.accept(#accept);));
        }
        let read = match &tool.returns {
            Returns::Nothing => quote!(call.send().await?; Ok(())),
            Returns::Content | Returns::CallResult => {
                return Err(fail(
                    "a tool returning `content` or `call_result` cannot be forwarded; declare the API's result type".into(),
                ));
            }
            Returns::Value { ty } => match ty {
                Type::Primitive {
                    name: Primitive::String,
                } => quote!(call.send().await?.text()),
                Type::Primitive {
                    name: Primitive::Bytes,
                } => quote!(Ok(call.send().await?.bytes())),
                ty => {
                    let reader = self.reader(ty);
                    quote!(call.send().await?.json(#reader))
                }
            },
        };
        let name = names::value_ident(&tool.ident);
        let input_ty = names::plain(&tool_input_name(tool));
        let ok = self.value_type(&tool.returns);
        let result = self.std("Result");
        let method = format_ident!(
            "{}",
            method_variant(&op.method)
                .ok_or_else(|| fail(format!("`{}` is not an HTTP method", op.method)))?
        );
        let path = Literal::string(&op.path);
        let what = match &op.operation_id {
            Some(id) => format!("`{} {}` (`{id}`).", op.method, op.path),
            None => format!("`{} {}`.", op.method, op.path),
        };
        let docs = doc_attrs(&[what]);
        let param = if tool.params.is_empty() {
            quote!(_input: #input_ty)
        } else {
            quote!(input: #input_ty)
        };
        let call = if steps.is_empty() {
            quote!(let call = upstream.call(&ctx, rt::forward::Method::#method, #path);)
        } else {
            quote!(let mut call = upstream.call(&ctx, rt::forward::Method::#method, #path);)
        };
        Ok(quote! {
            #docs
            pub async fn #name(
                upstream: &rt::forward::Upstream,
                ctx: rt::RequestContext,
                #param,
            ) -> #result<#ok, rt::ToolError> {
                #call
                #(#steps)*
                #read
            }
        })
    }
}

fn is_json(media: &str) -> bool {
    let media = media.split(';').next().unwrap_or(media).trim();
    media == "application/json" || media.ends_with("+json")
}

/// The primitive a type is, nullable or not.
fn base(ty: &Type) -> Option<Primitive> {
    match ty {
        Type::Primitive { name } => Some(*name),
        Type::Nullable { inner } => base(inner),
        _ => None,
    }
}

/// `GET` → `Get`.
fn method_variant(method: &str) -> Option<&'static str> {
    Some(match method.to_ascii_uppercase().as_str() {
        "GET" => "Get",
        "PUT" => "Put",
        "POST" => "Post",
        "DELETE" => "Delete",
        "OPTIONS" => "Options",
        "HEAD" => "Head",
        "PATCH" => "Patch",
        "TRACE" => "Trace",
        _ => return None,
    })
}

fn style(style: Style) -> TokenStream {
    let variant = format_ident!(
        "{}",
        match style {
            Style::Simple => "Simple",
            Style::Label => "Label",
            Style::Matrix => "Matrix",
            Style::Form => "Form",
            Style::SpaceDelimited => "SpaceDelimited",
            Style::PipeDelimited => "PipeDelimited",
            Style::DeepObject => "DeepObject",
            Style::Json => "Json",
        }
    );
    quote!(rt::forward::Style::#variant)
}

fn scheme(scheme: &Scheme) -> TokenStream {
    match scheme {
        Scheme::ApiKey {
            name,
            location,
            key,
        } => {
            let location = format_ident!(
                "{}",
                match location {
                    Location::Query => "Query",
                    Location::Cookie => "Cookie",
                    Location::Header | Location::Path => "Header",
                }
            );
            quote!(rt::forward::Scheme::api_key(#name, rt::forward::KeyIn::#location, #key))
        }
        Scheme::Bearer { name } => quote!(rt::forward::Scheme::bearer(#name)),
        Scheme::Basic { name } => quote!(rt::forward::Scheme::basic(#name)),
        Scheme::OAuth2 { name, token_url } => {
            let url = match token_url {
                Some(url) => quote!(Some(#url)),
                None => quote!(None),
            };
            quote!(rt::forward::Scheme::oauth2(#name, #url))
        }
    }
}

/// The variables of a path template, in order: `/pets/{petId}` → `petId`.
fn path_variables(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let Some(end) = rest[start..].find('}') else {
            break;
        };
        out.push(&rest[start + 1..start + end]);
        rest = &rest[start + end + 1..];
    }
    out
}
