//! Tools: each tool's input struct and its `Decode` impl, `call_tool`, the result table, and
//! `task_support`.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use toolidl::model::{
    DefKind, Member, MemberKind, Primitive, ResultText, Returns, Service, TaskMode, TextPart, Tool,
    Type,
};

use crate::naming::{self as names, tool_input_name};
use crate::rust::context::Context;
use crate::rust::decode::{Others, is_plain, struct_inits};

impl Context<'_> {
    /// `GetWeatherArgs`: a tool's decoded arguments, with defaults applied.
    pub(super) fn tool_input(&self, tool: &Member, part: &Tool) -> TokenStream {
        let name = names::plain(&tool_input_name(tool));
        let doc = format!(
            "The input of the tool `{}`, decoded and checked.",
            tool.name
        );
        let decl = self.input_struct(&name, &doc, &tool.params);
        let others = if part.open {
            Others::Ignore
        } else {
            Others::Refuse
        };
        let body = self.fields_decoder(
            &tool.params,
            others,
            |_| false,
            |finals| {
                let inits = struct_inits(&tool.params, finals);
                quote!(#name { #(#inits),* })
            },
        );
        let result = self.std("Result");
        let wire = Literal::string(&tool.name);
        quote! {
            #decl

            impl rt::Decode for #name {
                fn read(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> #result<Self, rt::ArgError> {
                    #body
                }
            }

            impl rt::ToolInput for #name {
                const TOOL: &'static str = #wire;
            }
        }
    }

    pub(super) fn call_tool(&self, service: &Service) -> TokenStream {
        let arms = service.tools().map(|(t, _)| {
            let wire = Literal::string(&t.name);
            let method = names::value_ident(&t.ident);
            let input = names::plain(&tool_input_name(t));
            let output = self.tool_output(t);
            let call = quote!(self.inner.#method(ctx, input).await?);
            // `@text(handler)`: the handler's value and its text, if any.
            let handler_text = matches!(
                t.kind,
                MemberKind::Tool(Tool {
                    text: Some(ResultText::Handler),
                    ..
                })
            );
            let bind = if handler_text {
                quote!(rt::WithText { value, text })
            } else {
                quote!(value)
            };
            let body = match &t.returns {
                Returns::Nothing => quote!(#call; #output),
                // A value that can nest without bound may be too deep to write, and then to
                // drop on a worker's stack: the runtime disposes of it.
                Returns::Value { ty } if self.facts.nests_without_bound(ty) => quote! {
                    let #bind = #call;
                    let output = #output;
                    rt::ToolOutput::dispose_if_failed(value, output)
                },
                Returns::Value { .. } | Returns::Content | Returns::CallResult => {
                    quote!(let #bind = #call; #output)
                }
            };
            quote! {
                #wire => match args.decode::<#input>() {
                    Ok(input) => Box::pin(async move { #body }),
                    Err(e) => rt::ready(Err(e.into())),
                },
            }
        });
        // A service without tools still implements the required `call_tool`.
        if service.tools().next().is_none() {
            return quote! {
                fn call_tool(
                    self: rt::Arc<Self>,
                    name: &str,
                    _args: rt::Arguments<'_>,
                    _ctx: rt::RequestContext,
                ) -> rt::BoxFuture<rt::ToolResult> {
                    rt::ready(Err(rt::ToolError::internal(format!("no tool named {name}"))))
                }
            };
        }
        quote! {
            fn call_tool(
                self: rt::Arc<Self>,
                name: &str,
                args: rt::Arguments<'_>,
                ctx: rt::RequestContext,
            ) -> rt::BoxFuture<rt::ToolResult> {
                match name {
                    #(#arms)*
                    _ => rt::ready(Err(rt::ToolError::internal(format!("no tool named {name}")))),
                }
            }
        }
    }

    /// The result table: how a handler's value becomes a `ToolOutput`.
    fn tool_output(&self, tool: &Member) -> TokenStream {
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
                let structured = match (nullable, checked) {
                    (false, true) => quote!(rt::ToolOutput::checked_structured(&value)),
                    (true, true) => {
                        quote!(rt::ToolOutput::checked_nullable_structured(value.as_ref()))
                    }
                    (false, false) => quote!(rt::ToolOutput::structured(&value)),
                    (true, false) => quote!(rt::ToolOutput::nullable_structured(value.as_ref())),
                };
                let text = match &tool.kind {
                    MemberKind::Tool(part) => part.text.as_ref(),
                    _ => None,
                };
                match text {
                    None => structured,
                    Some(text) => self.result_text(structured, text),
                }
            }
            _ => quote!(rt::ToolOutput::json(&value)),
        }
    }
}

impl Context<'_> {
    /// `structured` (the checked output of `value`) with the text block `@text` gives it.
    fn result_text(&self, structured: TokenStream, text: &ResultText) -> TokenStream {
        match text {
            ResultText::Handler => {
                quote!(#structured.map(|output| output.maybe_with_text(text)))
            }
            ResultText::Pretty { field: None } => {
                quote!(#structured.map(rt::ToolOutput::pretty_text))
            }
            ResultText::Pretty { field: Some(field) } => {
                let field = names::value_ident(field);
                quote!(#structured.and_then(|output| output.pretty_text_of(&value.#field)))
            }
            ResultText::Template { parts } => {
                let mut format = String::new();
                let mut args = Vec::new();
                for part in parts {
                    match part {
                        TextPart::Text(t) => {
                            format.push_str(&t.replace('{', "{{").replace('}', "}}"));
                        }
                        // Every field a template names displays as its text (generated
                        // enums display their wire value).
                        TextPart::Field(name) => {
                            format.push_str("{}");
                            let ident = names::value_ident(name);
                            args.push(quote!(value.#ident));
                        }
                    }
                }
                let text = if args.is_empty() {
                    let lit = Literal::string(&format.replace("{{", "{").replace("}}", "}"));
                    quote!(#lit)
                } else if let [arg] = args.as_slice()
                    && format == "{}"
                {
                    // A template that is one field alone is that field's text.
                    quote!(#arg.to_string())
                } else {
                    let lit = Literal::string(&format);
                    quote!(format!(#lit, #(#args),*))
                };
                quote!(#structured.map(|output| output.with_text(#text)))
            }
        }
    }
}

/// `Service::task_support` for the service's `@task` tools; nothing when it has none.
pub(super) fn task_support(service: &Service) -> Option<TokenStream> {
    let arms: Vec<TokenStream> = service
        .tools()
        .filter_map(|(t, part)| {
            let wire = Literal::string(&t.name);
            let mode = match part.task? {
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
