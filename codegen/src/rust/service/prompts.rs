//! Prompts: each prompt's input struct and the decoder of its text arguments, and
//! `get_prompt`.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;
use toolidl::model::{Member, Returns, Service, Type, Value};

use crate::naming::{self as names, Methods, decoder_name, input_name};
use crate::rust::context::Context;
use crate::rust::decode::struct_inits;
use crate::rust::values;

impl Context<'_> {
    /// `SummarizeArgs`: a prompt's arguments, decoded and checked, with defaults applied.
    /// `method`: the prompt's Rust method name.
    pub(super) fn prompt_input(&self, p: &Member, method: &str) -> TokenStream {
        let name = names::plain(&input_name(method));
        let doc = format!(
            "The arguments of the prompt `{}`, decoded and checked.",
            p.name
        );
        let decl = self.input_struct(&name, &doc, &p.params);
        let wire = Literal::string(&p.name);
        quote! {
            #decl

            impl rt::PromptInput for #name {
                const PROMPT: &'static str = #wire;
            }
        }
    }

    pub(super) fn get_prompt(&self, service: &Service, methods: &Methods) -> TokenStream {
        let arms = service.prompts().map(|p| {
            let wire = Literal::string(&p.name);
            let method_name = methods.name(p);
            let input = names::plain(&input_name(&method_name));
            let method = names::value_ident(&method_name);
            let output = self.prompt_output(&p.returns);
            let call = quote!(self.inner.#method(ctx, input).await?);
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
                        let input = #input {};
                        #run
                    }
                }
            } else {
                let decode = decoder_name(&method_name);
                quote! {
                    #wire => match Self::#decode(args) {
                        Ok(input) => #run,
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
                args: rt::Arguments<'_>,
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

    /// Reads a prompt's text arguments into its input struct. `method`: the prompt's Rust
    /// method name.
    pub(super) fn prompt_decoder(&self, p: &Member, method: &str) -> TokenStream {
        let name = decoder_name(method);
        let input = names::plain(&input_name(method));
        let locals: Vec<Ident> = p
            .params
            .iter()
            .map(|f| names::local_ident(&f.name))
            .collect();
        let arms = p.params.iter().zip(&locals).map(|(f, local)| {
            let wire = Literal::string(&f.json_name);
            let (decode, checks) = self.text_field(f, &quote!(&path.field(#wire)));
            if checks.is_empty() {
                quote!(#wire => #local = Some(#decode),)
            } else {
                let (decode, _) = self.text_field(f, &quote!(&path));
                quote!(#wire => {
                    let path = path.field(#wire);
                    let value = #decode;
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
                        let d = values::default_expr(self, &f.ty, d);
                        quote!(#local.map(Some).unwrap_or(#d))
                    }
                    (Some(d), false) => values::unwrap_default(self, local, &f.ty, d),
                }
            })
            .collect();
        let inits = struct_inits(&p.params, finals);
        let result = self.std("Result");
        let known = p.params.iter().map(|f| Literal::string(&f.json_name));
        let doc = format!(" The arguments of the prompt `{}`.", p.name);
        quote! {
            #[doc = #doc]
            fn #name(args: rt::Arguments<'_>) -> #result<#input, rt::ArgError> {
                let path = &rt::Path::Root;
                #(let mut #locals = None;)*
                rt::args::text_arguments(&mut args.reader(), path, |key, text| {
                    // A `null` argument is one the client left out.
                    let Some(text) = text else { return Ok(()) };
                    let text = text.as_ref();
                    match key {
                        #(#arms)*
                        _ => return Err(rt::ArgError::unknown_of(path, key, &[#(#known),*])),
                    }
                    Ok(())
                })?;
                Ok(#input { #(#inits),* })
            }
        }
    }
}
