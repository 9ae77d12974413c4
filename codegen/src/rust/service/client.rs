//! `XxxClient` (option `client`): one async method per tool, resource and prompt, taking
//! the same input structs the server decodes and returning the declared types, each result
//! read back with the decoders the server runs on arguments (`rt::client`'s replies), so a
//! server that breaks its own declaration is an error, never a wrong value.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use toolidl::model::{
    DefKind, Member, MemberKind, Primitive, Resource, Returns, Service, TaskMode, Tool, Type,
};

use crate::naming::{self as names, Methods, client_name, input_name, tool_input_name};
use crate::rust::context::{Context, doc_attrs};
use crate::rust::error::GenerateError;

/// The client's own methods, which no tool, resource or prompt method may be named.
const OWN_METHODS: &[&str] = &["new", "from_arc", "spawn", "transport"];

/// How a reply becomes the declared value.
enum Read {
    /// An expression of the reply (`reply.text()`) that is the `Result` itself.
    Fallible(TokenStream),
    /// One that is the value.
    Value(TokenStream),
}

impl Context<'_> {
    pub fn client(&self, service: &Service) -> Result<TokenStream, GenerateError> {
        let methods = Methods::of(service);
        check_method_names(service, &methods)?;
        let ident = names::plain(&client_name(&service.name));
        let trait_ident = names::type_ident(&service.name);
        let docs = doc_attrs(&[
            format!(
                "Calls a server of [`{trait_ident}`]: one method per tool, resource and prompt, \
                 with the declared types."
            ),
            String::new(),
            "Make one on any `rt::client::Transport` (a child process, Streamable HTTP, or".into(),
            "`toolidl_runtime::testing`'s in-process client) with [`Self::new`], or start the"
                .into(),
            "server as a child process with [`Self::spawn`]. Each result is checked against its"
                .into(),
            "declared type, with its constraints: a server that breaks them gives".into(),
            "`ClientError::Mismatch`, never a wrong value.".into(),
        ]);
        let calls = service.members.iter().map(|m| match &m.kind {
            MemberKind::Tool(tool) => self.tool_method(m, tool),
            MemberKind::Resource(r) | MemberKind::Template(r) => {
                self.resource_method(m, r, &methods.name(m))
            }
            MemberKind::Prompt => self.prompt_method(m, &methods.name(m)),
        });
        let result = self.std("Result");
        Ok(quote! {
            #docs
            #[derive(Clone)]
            pub struct #ident {
                transport: rt::Arc<dyn rt::client::Transport>,
            }

            impl #ident {
                /// Calls the server at the other end of `transport`.
                pub fn new(transport: impl rt::client::Transport + 'static) -> Self {
                    Self::from_arc(rt::Arc::new(transport))
                }

                /// Calls the server through a transport that is shared elsewhere too.
                pub fn from_arc(transport: rt::Arc<dyn rt::client::Transport>) -> Self {
                    #ident { transport }
                }

                /// Starts `command` as a server over stdio and runs the `initialize` handshake.
                pub async fn spawn(
                    command: rt::client::Command,
                ) -> #result<Self, rt::client::ClientError> {
                    Ok(Self::new(rt::client::StdioTransport::spawn(command).await?))
                }

                /// The transport calls go through.
                pub fn transport(&self) -> &dyn rt::client::Transport {
                    &*self.transport
                }

                #(#calls)*
            }
        })
    }

    fn tool_method(&self, tool: &Member, part: &Tool) -> TokenStream {
        let input = names::plain(&tool_input_name(tool));
        let wire = Literal::string(&tool.name);
        let mut doc = method_doc(&tool.doc, &format!("Calls the tool `{}`.", tool.name));
        if part.task == Some(TaskMode::Required) {
            doc.push(String::new());
            doc.push(
                "The tool runs only as a task: under 2026-07-28 the transport declares the \
                 tasks extension, waits for the task and returns its result."
                    .into(),
            );
        }
        // No parameters: the empty input is bound first, so that the call reads on one line.
        let (param, empty, arguments) = if tool.params.is_empty() {
            (None, Some(quote!(let input = #input {};)), quote!(input))
        } else {
            (Some(quote!(input: #input)), None, quote!(&input))
        };
        let call = quote!(rt::client::call_tool(&*self.transport, #wire, #arguments).await?);
        let body = match self.tool_read(&tool.returns) {
            None => quote!(#empty #call; Ok(())),
            Some(Read::Fallible(read)) => quote!(#empty let reply = #call; #read),
            Some(Read::Value(read)) => quote!(#empty let reply = #call; Ok(#read)),
        };
        self.client_method(&tool.ident, &doc, param, &tool.returns, body)
    }

    /// `method`: the resource's Rust method name.
    fn resource_method(&self, resource: &Member, part: &Resource, method: &str) -> TokenStream {
        let doc = method_doc(
            &resource.doc,
            &format!("Reads the resource `{}`.", part.uri),
        );
        let uri = Literal::string(&part.uri);
        let (param, uri) = if !resource.is_template() {
            (None, quote!(#uri))
        } else {
            let input = names::plain(&input_name(method));
            let (param, variables) = if resource.params.is_empty() {
                (None, quote!(#input {}))
            } else {
                (Some(quote!(input: #input)), quote!(&input))
            };
            (param, quote!(rt::client::template_uri(#uri, #variables)?))
        };
        let (prelude, uri) = if resource.is_template() {
            (Some(quote!(let uri = #uri;)), quote!(&uri))
        } else {
            (None, uri)
        };
        let call = quote!(rt::client::read_resource(&*self.transport, #uri).await?);
        let body = self.text_reply_body(&resource.returns, call, true);
        let body = quote!(#prelude #body);
        self.client_method(method, &doc, param, &resource.returns, body)
    }

    /// `method`: the prompt's Rust method name.
    fn prompt_method(&self, prompt: &Member, method: &str) -> TokenStream {
        let doc = method_doc(
            &prompt.doc,
            &format!("Renders the prompt `{}`.", prompt.name),
        );
        let input = names::plain(&input_name(method));
        let wire = Literal::string(&prompt.name);
        let (param, arguments) = if prompt.params.is_empty() {
            (None, quote!(#input {}))
        } else {
            (Some(quote!(input: #input)), quote!(&input))
        };
        let call = quote!(rt::client::get_prompt(&*self.transport, #wire, #arguments).await?);
        let body = self.text_reply_body(&prompt.returns, call, false);
        self.client_method(method, &doc, param, &prompt.returns, body)
    }

    fn client_method(
        &self,
        method: &str,
        doc: &[String],
        param: Option<TokenStream>,
        returns: &Returns,
        body: TokenStream,
    ) -> TokenStream {
        let name = names::value_ident(method);
        let docs = doc_attrs(doc);
        let ok = self.value_type(returns);
        let result = self.std("Result");
        quote! {
            #docs
            pub async fn #name(&self, #param) -> #result<#ok, rt::client::ClientError> {
                #body
            }
        }
    }

    /// How a `ToolReply` named `reply` becomes the value of `returns`; `None` for no result.
    fn tool_read(&self, returns: &Returns) -> Option<Read> {
        let ty = match returns {
            Returns::Nothing => return None,
            Returns::Content => return Some(Read::Value(quote!(reply.into_content()))),
            Returns::CallResult => return Some(Read::Value(quote!(reply.into_json()))),
            Returns::Value { ty } => ty,
        };
        let (base, nullable) = strip_nullable(ty);
        let read = self.reader(ty);
        Some(match base {
            Type::Primitive {
                name: Primitive::String,
            } if nullable => Read::Value(quote!(reply.nullable_text())),
            Type::Primitive {
                name: Primitive::String,
            } => Read::Value(quote!(reply.text())),
            Type::Named {
                def: DefKind::Enum, ..
            } => Read::Fallible(quote!(reply.member(#read))),
            Type::Named {
                def: DefKind::Record,
                ..
            }
            | Type::Map { .. } => Read::Fallible(quote!(reply.structured_with(#read))),
            _ => Read::Fallible(quote!(reply.json(#read))),
        })
    }

    /// The body of a resource's (`blob`: it may be bytes) or prompt's method, whose reply is
    /// `call`: a string as its text, bytes as its blob, anything else as JSON text.
    fn text_reply_body(&self, returns: &Returns, call: TokenStream, blob: bool) -> TokenStream {
        let ty = match returns {
            Returns::Nothing => return quote!(#call; Ok(())),
            Returns::Content if blob => return quote!(Ok(#call.contents().to_vec())),
            Returns::Content => return quote!(Ok(#call.messages().to_vec())),
            Returns::CallResult => return quote!(Ok(#call.into_json())),
            Returns::Value { ty } => ty,
        };
        let (base, nullable) = strip_nullable(ty);
        let read = match base {
            Type::Primitive {
                name: Primitive::String,
            } if nullable => quote!(nullable_text()),
            Type::Primitive {
                name: Primitive::String,
            } => quote!(text()),
            Type::Primitive {
                name: Primitive::Bytes,
            } if blob && nullable => quote!(nullable_bytes()),
            Type::Primitive {
                name: Primitive::Bytes,
            } if blob => quote!(bytes()),
            _ => {
                let read = self.reader(ty);
                quote!(json(#read))
            }
        };
        quote!(#call.#read)
    }

    /// What reads a value of `ty` with every check the server makes on arguments: the type's
    /// own `Decode::read` when that checks everything, else `|r, path| …`.
    pub(crate) fn reader(&self, ty: &Type) -> TokenStream {
        if self.plain(ty) {
            let rust = self.rust_type(ty, false);
            return quote!(<#rust as rt::Decode>::read);
        }
        let decode = self.decode_expr(ty, false, &quote!(r), &quote!(path));
        quote!(|r, path| #decode)
    }
}

fn strip_nullable(ty: &Type) -> (&Type, bool) {
    match ty {
        Type::Nullable { inner } => (inner, true),
        other => (other, false),
    }
}

/// A method's doc lines: its declaration's doc comment, else `what`.
fn method_doc(doc: &[String], what: &str) -> Vec<String> {
    if doc.is_empty() {
        vec![what.to_owned()]
    } else {
        doc.to_vec()
    }
}

/// Refuses a tool, resource or prompt whose method would take the name of one of the
/// client's own, naming the declaration.
fn check_method_names(service: &Service, methods: &Methods) -> Result<(), GenerateError> {
    for m in &service.members {
        let (kind, declared, method) = (m.kind.keyword(), &m.ident, methods.name(m));
        if OWN_METHODS.contains(&method.as_str()) {
            return Err(GenerateError {
                message: format!(
                    "service `{}`, {kind} `{declared}`: its client method would be `{method}`, \
                     which `{}` has already (it makes the client); rename the {kind} and keep \
                     its published name with `@name(\"{declared}\")`, or generate without the \
                     client",
                    service.name,
                    client_name(&service.name)
                ),
            });
        }
    }
    Ok(())
}
