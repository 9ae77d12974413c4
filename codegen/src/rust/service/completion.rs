//! Completion: the enum of a service's completable arguments (prompt arguments and
//! resource-template variables, by owner), the provided `complete` method, and its dispatch.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use toolidl::model::{DefKind, Field, Member, MemberKind, Service, Type};

use crate::naming::{self as names, Methods, argument_enum_name};
use crate::rust::context::Context;

/// How `completion/complete` refers to a member whose arguments it completes: a resource
/// template by its URI (`ref/resource`), a prompt by its name (`ref/prompt`); `None` for
/// the others.
fn reference(m: &Member) -> Option<(&'static str, &str)> {
    match &m.kind {
        MemberKind::Template(r) => Some(("ref/resource", &r.uri)),
        MemberKind::Prompt => Some(("ref/prompt", &m.name)),
        MemberKind::Tool(_) | MemberKind::Resource(_) => None,
    }
}

/// A service answers `completion/complete` when it has a prompt or a resource template.
pub fn has_completions(service: &Service) -> bool {
    service.members.iter().any(|m| reference(m).is_some())
}

/// One argument `completion/complete` may ask about.
#[derive(Clone)]
pub struct Completable<'a> {
    /// `ref/prompt` or `ref/resource`.
    pub ref_type: &'static str,
    /// The prompt's name or the template's URI.
    pub reference: &'a str,
    /// `the argument `city` of the prompt `summarize`` (docs and messages).
    pub what: String,
    pub field: &'a Field,
    /// The declared identifier of the prompt or resource.
    pub owner_ident: &'a str,
    /// Its Rust method name.
    pub owner_method: String,
    /// The enum variant: the owner's Rust method name and the argument's, in UpperCamelCase
    /// (`SummarizeCity`).
    pub variant: String,
}

/// Every completable argument of `service`: resource templates' variables, then prompts'
/// arguments, in declaration order.
pub fn completable(service: &Service) -> Vec<Completable<'_>> {
    let methods = Methods::of(service);
    let mut out = Vec::new();
    for m in &service.members {
        let Some((ref_type, reference)) = reference(m) else {
            continue;
        };
        let method = methods.name(m);
        for f in &m.params {
            let what = if m.is_template() {
                format!(
                    "the variable `{}` of the resource template `{reference}`",
                    f.json_name
                )
            } else {
                format!("the argument `{}` of the prompt `{reference}`", f.json_name)
            };
            out.push(Completable {
                ref_type,
                reference,
                what,
                field: f,
                owner_ident: &m.ident,
                owner_method: method.clone(),
                variant: format!("{}{}", names::type_name(&method), names::type_name(&f.name)),
            });
        }
    }
    out
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

impl Context<'_> {
    /// `WeatherToolsArgument`: which argument a completion request is about.
    pub(super) fn completable_enum(
        &self,
        service: &Service,
        list: &[Completable<'_>],
    ) -> TokenStream {
        let ident = names::plain(&argument_enum_name(&service.name));
        let trait_ident = names::type_ident(&service.name);
        let doc = format!(
            " A prompt argument or resource-template variable of service `{}`, as `completion/complete` names it: what [`{trait_ident}::complete`] is asked about.",
            service.name
        );
        let variants: Vec<_> = list.iter().map(|c| names::plain(&c.variant)).collect();
        let decls = list.iter().zip(&variants).map(|(c, v)| {
            let doc = format!(" {}{}.", c.what[..1].to_uppercase(), &c.what[1..]);
            quote!(#[doc = #doc] #v,)
        });
        let of_arms = list.iter().zip(&variants).map(|(c, v)| {
            let (kind, reference) = (Literal::string(c.ref_type), Literal::string(c.reference));
            let arg = Literal::string(&c.field.json_name);
            quote!((#kind, #reference, #arg) => Some(#ident::#v),)
        });
        let mut member_arms: Vec<TokenStream> = Vec::new();
        for (c, v) in list.iter().zip(&variants) {
            if let Some((package, name)) = enum_of(&c.field.ty) {
                let path = self.type_path(package, name);
                member_arms.push(quote!(#ident::#v => &#path::NAMES,));
            }
        }
        let members = if member_arms.is_empty() {
            quote!(&[])
        } else if member_arms.len() == list.len() {
            quote!(match self { #(#member_arms)* })
        } else {
            quote!(match self { #(#member_arms)* _ => &[], })
        };
        let option = self.std("Option");
        quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            pub enum #ident {
                #(#decls)*
            }

            impl #ident {
                /// The argument a completion request names, if the service has it.
                pub fn of(request: &rt::CompletionRequest) -> #option<Self> {
                    match (
                        request.ref_type.as_str(),
                        request.ref_name.as_str(),
                        request.argument_name.as_str(),
                    ) {
                        #(#of_arms)*
                        _ => None,
                    }
                }

                /// The wire names of an enum-typed argument's members; empty for the others.
                pub fn members(self) -> &'static [&'static str] {
                    #members
                }
            }
        }
    }

    /// The provided `complete` method: enum members that start with what was typed.
    pub(super) fn complete_method(&self, service: &Service) -> TokenStream {
        let argument = names::plain(&argument_enum_name(&service.name));
        let result = self.std("Result");
        let send = self.std("Send");
        quote! {
            /// Suggests values for a prompt argument or a resource-template variable
            /// (`completion/complete`). By default: the members of an enum-typed one that
            /// start with what was typed, and nothing for the others.
            fn complete(
                &self,
                ctx: rt::RequestContext,
                argument: #argument,
                request: rt::CompletionRequest,
            ) -> impl ::core::future::Future<Output = #result<rt::Completion, rt::RpcError>> + #send {
                let _ = ctx;
                ::core::future::ready(Ok(rt::Completion::members(argument.members(), &request.argument_value)))
            }
        }
    }

    pub(super) fn complete_dispatch(&self, service: &Service) -> TokenStream {
        let refs = service
            .members
            .iter()
            .filter_map(reference)
            .map(|(ref_type, name)| {
                let name = Literal::string(name);
                quote!((#ref_type, #name))
            });
        let option = self.std("Option");
        let result = self.std("Result");
        // An argument the prompt or template does not have: nothing to suggest.
        let nothing = quote!(rt::ready(Ok(rt::Completion::members(
            &[],
            &request.argument_value
        ))));
        let answer = if completable(service).is_empty() {
            quote!({
                let _ = ctx;
                #nothing
            })
        } else {
            let argument = names::plain(&argument_enum_name(&service.name));
            quote! {
                match #argument::of(request) {
                    Some(argument) => {
                        let request = request.clone();
                        Box::pin(async move { self.inner.complete(ctx, argument, request).await })
                    }
                    None => #nothing,
                }
            }
        };
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
                    #(#refs)|* => Some(#answer),
                    _ => None,
                }
            }
        }
    }
}
