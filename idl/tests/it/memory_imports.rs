//! Imports through the in-memory loader: relative paths, load order, shared files loaded
//! once, and diagnostics that name the imported file.

use toolidl::model::{Type, TypeDef};
use toolidl::source::{MemoryLoader, SourceId};

fn loader() -> MemoryLoader {
    let mut loader = MemoryLoader::new();
    loader
        .insert("lib/common.tool", "package acme.common;\nrecord Page { n: u32 }\nenum Order { up, down }")
        .insert("lib/paging.tool", "package acme.paging;\nimport \"common.tool\";\nrecord Page { cursor: string, order: Order }")
        .insert("lib/bad.tool", "record Bad { x: Nope }");
    loader
}

#[test]
fn imported_types_follow_the_files_own_in_load_order() {
    let text = "import \"../lib/common.tool\";\nimport \"../lib/paging.tool\";\nrecord Mine { a: acme.paging.Page, b: Order }";
    let output = toolidl::compile(&loader(), SourceId::new("app/root.tool"), text.into());
    assert_eq!(output.render(), "");
    let model = output.model.unwrap();
    assert_eq!(model.package, "root");
    assert_eq!(model.imports, ["acme.common", "acme.paging"]);
    let names: Vec<String> = model
        .types()
        .iter()
        .map(|t| format!("{}.{}", t.package(), t.name()))
        .collect();
    // common.tool is imported twice (directly and by paging.tool) but loaded once.
    assert_eq!(
        names,
        [
            "root.Mine",
            "acme.common.Page",
            "acme.common.Order",
            "acme.paging.Page"
        ]
    );
    let Some(TypeDef::Record(mine)) = model.lookup("root", "Mine") else {
        panic!("Mine is a record")
    };
    assert!(matches!(&mine.fields[0].ty, Type::Named { package, .. } if package == "acme.paging"));
}

#[test]
fn short_names_of_two_imported_packages_are_ambiguous() {
    let text = "import \"lib/common.tool\";\nimport \"lib/paging.tool\";\nrecord Mine { a: Page }";
    let output = toolidl::compile(&loader(), SourceId::new("root.tool"), text.into());
    assert!(output.model.is_none());
    let rendered = output.render();
    assert!(
        rendered.starts_with("error[E0102]: `Page` is ambiguous"),
        "{rendered}"
    );
    assert!(rendered.contains("--> root.tool:3:18"), "{rendered}");
}

#[test]
fn errors_of_an_imported_file_name_that_file() {
    let text = "import \"lib/bad.tool\";\nrecord Mine { b: Bad }";
    let output = toolidl::compile(&loader(), SourceId::new("root.tool"), text.into());
    let rendered = output.render();
    assert!(rendered.contains("--> lib/bad.tool:1:17"), "{rendered}");
    assert_eq!(output.diagnostics.len(), 1, "{rendered}");
}

#[test]
fn a_missing_import_is_reported_at_its_path() {
    let text = "import \"nowhere.tool\";\nrecord Mine { b: Unknown }";
    let output = toolidl::compile(&loader(), SourceId::new("root.tool"), text.into());
    let rendered = output.render();
    assert!(
        rendered.starts_with(
            "error[E1001]: cannot read import \"nowhere.tool\": no file `nowhere.tool`"
        ),
        "{rendered}"
    );
    assert!(rendered.contains("--> root.tool:1:8"), "{rendered}");
    // Unknown names are not reported while an import is missing: they would repeat it.
    assert_eq!(output.diagnostics.len(), 1, "{rendered}");
}
