//! Hand-built models for the schema tests: the resolver is tested elsewhere, so these tests
//! pin the generator against the model contract alone.
use serde_json::Value;
use toolidl::model::*;

pub const PKG: &str = "test";

pub fn prim(name: Primitive) -> Type {
    Type::Primitive { name }
}

pub fn nullable(inner: Type) -> Type {
    Type::Nullable {
        inner: Box::new(inner),
    }
}

pub fn list(item: Type) -> Type {
    Type::List {
        item: Box::new(item),
        each: Box::default(),
    }
}

pub fn set(item: Type) -> Type {
    Type::Set {
        item: Box::new(item),
        each: Box::default(),
    }
}

pub fn map(value: Type) -> Type {
    Type::Map {
        value: Box::new(value),
        each: Box::default(),
    }
}

pub fn record_ref(name: &str) -> Type {
    named(PKG, name, DefKind::Record)
}

pub fn enum_ref(name: &str) -> Type {
    named(PKG, name, DefKind::Enum)
}

pub fn named(package: &str, name: &str, def: DefKind) -> Type {
    Type::Named {
        package: package.into(),
        name: name.into(),
        def,
    }
}

pub fn field(name: &str, ty: Type) -> Field {
    Field {
        name: name.into(),
        json_name: name.into(),
        doc: vec![],
        description: None,
        ty,
        default: None,
        required: true,
        constraints: Constraints::default(),
    }
}

pub fn with_default(mut field: Field, value: toolidl::model::Value) -> Field {
    field.default = Some(value);
    field.required = false;
    field
}

pub fn described(mut field: Field, text: &str) -> Field {
    field.description = Some(text.into());
    field
}

pub fn constrained(mut field: Field, constraints: Constraints) -> Field {
    field.constraints = constraints;
    field
}

pub fn record(name: &str, fields: Vec<Field>) -> TypeDef {
    record_in(PKG, name, fields)
}

pub fn record_in(package: &str, name: &str, fields: Vec<Field>) -> TypeDef {
    TypeDef::Record(Record {
        package: package.into(),
        name: name.into(),
        doc: vec![],
        description: None,
        rename_all: None,
        fields,
        open: false,
        open_input: false,
    })
}

pub fn enumeration(name: &str, members: &[&str], description: Option<&str>) -> TypeDef {
    TypeDef::Enum(Enum {
        package: PKG.into(),
        name: name.into(),
        doc: vec![],
        description: description.map(str::to_owned),
        variants: members
            .iter()
            .map(|m| Variant {
                name: (*m).into(),
                doc: vec![],
                value: None,
            })
            .collect(),
        document_members: false,
    })
}

pub fn tool(name: &str, params: Vec<Field>, returns: Returns) -> Member {
    Member {
        ident: name.into(),
        name: name.into(),
        title: None,
        doc: vec![],
        description: None,
        params,
        returns,
        scopes: vec![],
        kind: MemberKind::Tool(Tool::default()),
    }
}

/// What only a tool has, of the tool `m`.
pub fn tool_part(m: &mut Member) -> &mut Tool {
    match &mut m.kind {
        MemberKind::Tool(tool) => tool,
        other => panic!("not a tool: {other:?}"),
    }
}

pub fn model(types: Vec<TypeDef>, tools: Vec<Member>) -> Model {
    Model::new(
        PKG.into(),
        vec![],
        types,
        vec![Service {
            name: "TestTools".into(),
            doc: vec![],
            members: tools,
        }],
    )
}

/// The schema of the only parameter `p` of the only tool of `model`.
pub fn param_schema(model: &Model) -> Value {
    let tool = &model.services[0].members[0];
    let schema = toolidl_codegen::input_schema(model, tool, &Default::default()).unwrap();
    assert_valid_schema(&schema);
    schema["properties"][&tool.params[0].json_name].clone()
}

/// The fragment of one parameter of type `ty`, in a model holding `types`.
pub fn fragment_of(types: Vec<TypeDef>, param: Field) -> String {
    let model = model(types, vec![tool("t", vec![param], Returns::Nothing)]);
    param_schema(&model).to_string()
}

/// Fails unless `schema` is a valid JSON Schema 2020-12 document.
pub fn assert_valid_schema(schema: &Value) {
    if let Err(error) = jsonschema::draft202012::meta::validate(schema) {
        panic!("not a valid 2020-12 schema ({error}): {schema}");
    }
}

/// A validator for `schema` that asserts `format`, as the instance tests need.
pub fn validator(schema: &Value) -> jsonschema::Validator {
    assert_valid_schema(schema);
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
}
