//! A [`Model`](super::Model) read from JSON (its type index rebuilt), and a
//! [`Service`](super::Service) as JSON: `tools`, `resources` and `prompts`, each member
//! with the fields of its kind in one object (the form the golden models and the tools that
//! read them know).

use serde::{Deserialize, Serialize};

use super::{
    Annotations, Field, Member, MemberKind, Resource as ResourcePart, ResourceUi, ResultText,
    Returns, TaskMode, TaskSupport, Tool as ToolPart, TypeDef, Ui,
};

#[derive(Deserialize)]
pub(super) struct Model {
    package: String,
    imports: Vec<String>,
    types: Vec<TypeDef>,
    services: Vec<super::Service>,
}

impl From<Model> for super::Model {
    fn from(m: Model) -> Self {
        super::Model::new(m.package, m.imports, m.types, m.services)
    }
}

#[derive(Serialize, Deserialize)]
pub(super) struct Service {
    name: String,
    doc: Vec<String>,
    tools: Vec<Tool>,
    resources: Vec<Resource>,
    prompts: Vec<Prompt>,
}

#[derive(Serialize, Deserialize)]
struct Tool {
    ident: String,
    name: String,
    title: Option<String>,
    doc: Vec<String>,
    description: Option<String>,
    params: Vec<Field>,
    returns: Returns,
    annotations: Annotations,
    ui: Option<Ui>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task: Option<TaskMode>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    open: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task_support: Option<TaskSupport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    schema_dialect: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<ResultText>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scopes: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct Resource {
    ident: String,
    name: String,
    title: Option<String>,
    doc: Vec<String>,
    description: Option<String>,
    uri: String,
    is_template: bool,
    mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ui: Option<ResourceUi>,
    params: Vec<Field>,
    returns: Returns,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scopes: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct Prompt {
    ident: String,
    name: String,
    title: Option<String>,
    doc: Vec<String>,
    description: Option<String>,
    params: Vec<Field>,
    returns: Returns,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scopes: Vec<String>,
}

impl From<super::Service> for Service {
    fn from(service: super::Service) -> Self {
        let mut wire = Service {
            name: service.name,
            doc: service.doc,
            tools: Vec::new(),
            resources: Vec::new(),
            prompts: Vec::new(),
        };
        for m in service.members {
            let Member {
                ident,
                name,
                title,
                doc,
                description,
                params,
                returns,
                scopes,
                kind,
            } = m;
            let is_template = matches!(kind, MemberKind::Template(_));
            match kind {
                MemberKind::Tool(t) => wire.tools.push(Tool {
                    ident,
                    name,
                    title,
                    doc,
                    description,
                    params,
                    returns,
                    annotations: t.annotations,
                    ui: t.ui,
                    task: t.task,
                    open: t.open,
                    task_support: t.task_support,
                    schema_dialect: t.schema_dialect,
                    text: t.text,
                    scopes,
                }),
                MemberKind::Resource(r) | MemberKind::Template(r) => {
                    wire.resources.push(Resource {
                        ident,
                        name,
                        title,
                        doc,
                        description,
                        uri: r.uri,
                        is_template,
                        mime_type: r.mime_type,
                        ui: r.ui,
                        params,
                        returns,
                        scopes,
                    })
                }
                MemberKind::Prompt => wire.prompts.push(Prompt {
                    ident,
                    name,
                    title,
                    doc,
                    description,
                    params,
                    returns,
                    scopes,
                }),
            }
        }
        wire
    }
}

impl From<Service> for super::Service {
    fn from(wire: Service) -> Self {
        let tools = wire.tools.into_iter().map(|t| Member {
            ident: t.ident,
            name: t.name,
            title: t.title,
            doc: t.doc,
            description: t.description,
            params: t.params,
            returns: t.returns,
            scopes: t.scopes,
            kind: MemberKind::Tool(ToolPart {
                annotations: t.annotations,
                ui: t.ui,
                task: t.task,
                open: t.open,
                task_support: t.task_support,
                schema_dialect: t.schema_dialect,
                text: t.text,
            }),
        });
        let resources = wire.resources.into_iter().map(|r| {
            let part = ResourcePart {
                uri: r.uri,
                mime_type: r.mime_type,
                ui: r.ui,
            };
            Member {
                ident: r.ident,
                name: r.name,
                title: r.title,
                doc: r.doc,
                description: r.description,
                params: r.params,
                returns: r.returns,
                scopes: r.scopes,
                kind: if r.is_template {
                    MemberKind::Template(part)
                } else {
                    MemberKind::Resource(part)
                },
            }
        });
        let prompts = wire.prompts.into_iter().map(|p| Member {
            ident: p.ident,
            name: p.name,
            title: p.title,
            doc: p.doc,
            description: p.description,
            params: p.params,
            returns: p.returns,
            scopes: p.scopes,
            kind: MemberKind::Prompt,
        });
        super::Service {
            name: wire.name,
            doc: wire.doc,
            members: tools.chain(resources).chain(prompts).collect(),
        }
    }
}
