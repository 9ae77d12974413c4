//! Resources: a template's input struct and the decoder of its URI variables, and
//! `read_resource` (listed URIs first, then templates).

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use toolidl::model::{Member, Primitive, Resource, Returns, Service, Type};

use crate::listings::ServiceListings;
use crate::naming::{self as names, Methods, decoder_name, input_name};
use crate::rust::context::Context;

/// The variables of a URI template, in order (`{name}` → `name`).
fn template_variables(uri: &str) -> Vec<&str> {
    uri.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(var, _)| var))
        .collect()
}

fn strip_nullable(ty: &Type) -> &Type {
    match ty {
        Type::Nullable { inner } => inner,
        other => other,
    }
}

impl Context<'_> {
    /// `NoteArgs`: a resource template's variables, decoded and checked.
    /// `method`: the resource's Rust method name.
    pub(super) fn resource_input(&self, r: &Member, part: &Resource, method: &str) -> TokenStream {
        let name = names::plain(&input_name(method));
        let doc = format!(
            "The variables of the resource template `{}`, decoded and checked.",
            part.uri
        );
        self.input_struct(&name, &doc, &r.params)
    }

    pub(super) fn read_resource(
        &self,
        service: &Service,
        methods: &Methods,
        listings: &ServiceListings,
    ) -> TokenStream {
        // Fixed URIs first: a template must not take a URI that a listed resource names
        // (`notes://{id}` and `notes://index`), whatever the declaration order.
        let (templates, fixed): (Vec<_>, Vec<_>) =
            service.resources().partition(|(r, _)| r.is_template());
        let branches = fixed.into_iter().chain(templates).map(|(r, part)| {
            let listing = listings
                .resources
                .iter()
                .chain(&listings.resource_templates)
                .find(|l| l.ident == r.ident);
            let mime = listing
                .and_then(|l| l.entry.get("mimeType"))
                .and_then(|m| m.as_str())
                .map(str::to_owned);
            // A view's `_meta` goes with its content too (MCP Apps).
            let meta = listing
                .and_then(|l| l.entry.get("_meta"))
                .map(|m| m.to_string());
            self.resource_branch(r, part, mime, meta, &methods.name(r))
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
    fn resource_branch(
        &self,
        r: &Member,
        part: &Resource,
        mime: Option<String>,
        meta: Option<String>,
        method: &str,
    ) -> TokenStream {
        let decode = decoder_name(method);
        let input = names::plain(&input_name(method));
        let method = names::value_ident(method);
        let template = Literal::string(&part.uri);
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
        let with_meta = |contents: TokenStream| match &meta {
            Some(meta) => {
                let meta = super::raw_string(meta);
                quote!(rt::content::with_meta(#contents, #meta))
            }
            None => contents,
        };
        let output = self.text_output(
            &r.returns,
            empty,
            |text| with_meta(quote!(rt::content::resource_text(&uri, #mime, #text))),
            Some(with_meta(
                quote!(rt::content::resource_blob(&uri, #mime, &value)),
            )),
        );
        let call = if r.is_template() {
            quote!(self.inner.#method(ctx, input).await?)
        } else {
            quote!(self.inner.#method(ctx).await?)
        };
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
        if !r.is_template() {
            return quote! {
                if uri == #template {
                    #run
                }
            };
        }
        // Bind each variable's text once, by its first place in the template.
        let mut seen = Vec::new();
        let bindings = template_variables(&part.uri).into_iter().map(|v| {
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
        let decoded = if r.params.is_empty() {
            quote!(#input {})
        } else {
            quote! {
                match Self::#decode(#(#texts),*) {
                    Ok(input) => input,
                    Err(e) => return Some(rt::ready(Err(e.into()))),
                }
            }
        };
        quote! {
            let captured = rt::uri_template::capture(#template, uri);
            if let Some([#(#bindings),*]) = captured.as_deref() {
                let input = #decoded;
                #run
            }
        }
    }

    /// Reads a resource template's variables (their texts, in parameter order) into its input
    /// struct. `method`: the resource's Rust method name.
    pub(super) fn resource_decoder(
        &self,
        r: &Member,
        part: &Resource,
        method: &str,
    ) -> TokenStream {
        let name = decoder_name(method);
        let input = names::plain(&input_name(method));
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
                (true, false) => decode,
                (true, true) => quote!(Some(#decode)),
                (false, false) => quote!({ let value = #decode; #checks value }),
                (false, true) => quote!({ let value = #decode; #checks Some(value) }),
            };
            quote! {
                let #local = {
                    let path = path.field(#wire);
                    let text = #local;
                    #value
                };
            }
        });
        let inits = r.params.iter().zip(&locals).map(|(f, local)| {
            let field = names::value_ident(&f.name);
            if field == *local {
                quote!(#field)
            } else {
                quote!(#field: #local)
            }
        });
        let result = self.std("Result");
        let doc = format!(" The variables of `{}`.", part.uri);
        quote! {
            #[doc = #doc]
            fn #name(#(#locals: &str),*) -> #result<#input, rt::ArgError> {
                let path = &rt::Path::Root;
                #(#reads)*
                Ok(#input { #(#inits),* })
            }
        }
    }
}
