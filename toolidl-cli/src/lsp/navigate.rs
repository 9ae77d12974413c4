//! Go to definition, find references and rename, for records, enums, unions and named types
//! (and imports), across the workspace's files; rename of a parameter, too.

use std::collections::HashMap;

use lsp_types::{Location, Range, TextEdit, Url, WorkspaceEdit};
use toolidl::ast::Span;

use super::hover::member_at;
use super::index::{Indexes, Target};
use super::workspace::uri_of;

/// What the cursor is on, for navigation.
enum Symbol {
    Type(Target),
    /// An import's path: the file it names.
    File(String),
}

fn symbol_at(indexes: &mut Indexes<'_>, key: &str, offset: usize) -> Option<Symbol> {
    let file = indexes.get(key)?;
    if let Some(imported) = file.import_at(offset) {
        return Some(Symbol::File(imported.to_string()));
    }
    if let Some(r) = file.ref_at(offset) {
        return indexes.resolve(key, &r.path).map(Symbol::Type);
    }
    let item = file.decl_at(offset)?;
    file.type_decl(&item.name().name)?;
    Some(Symbol::Type(Target {
        key: key.to_string(),
        name: item.name().name.clone(),
    }))
}

fn location(indexes: &mut Indexes<'_>, key: &str, span: Span) -> Option<Location> {
    let file = indexes.get(key)?;
    Some(Location::new(
        uri_of(key)?,
        file.lines.range(&file.text, span),
    ))
}

/// The span of a target's declared name.
fn declared_at(indexes: &mut Indexes<'_>, target: &Target) -> Option<Span> {
    let file = indexes.declaration(target)?;
    Some(file.type_decl(&target.name)?.name().span)
}

pub fn definition(indexes: &mut Indexes<'_>, key: &str, offset: usize) -> Option<Location> {
    match symbol_at(indexes, key, offset)? {
        Symbol::Type(target) => {
            let span = declared_at(indexes, &target)?;
            location(indexes, &target.key, span)
        }
        Symbol::File(imported) => {
            indexes.get(&imported)?;
            Some(Location::new(uri_of(&imported)?, Range::default()))
        }
    }
}

pub fn references(
    indexes: &mut Indexes<'_>,
    key: &str,
    offset: usize,
    include_declaration: bool,
) -> Option<Vec<Location>> {
    let Symbol::Type(target) = symbol_at(indexes, key, offset)? else {
        return None;
    };
    let mut places = Vec::new();
    if include_declaration {
        places.push((target.key.clone(), declared_at(indexes, &target)?));
    }
    places.extend(indexes.references(&target));
    Some(
        places
            .into_iter()
            .filter_map(|(k, span)| location(indexes, &k, span))
            .collect(),
    )
}

/// Whether `name` can be a declared name (the grammar's `ident`).
fn is_ident(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A rename: the edits, and a warning for the user when the rename changes what clients
/// see.
pub struct Renamed {
    pub edit: WorkspaceEdit,
    pub warning: Option<String>,
}

pub fn rename(
    indexes: &mut Indexes<'_>,
    key: &str,
    offset: usize,
    new_name: &str,
) -> Result<Option<Renamed>, String> {
    if !is_ident(new_name) {
        return Err(format!(
            "`{new_name}` is not a name (letters, digits and `_`, not starting with a digit)"
        ));
    }
    let mut places: Vec<(String, Span)> = Vec::new();
    let mut warning = None;
    if let Some(Symbol::Type(target)) = symbol_at(indexes, key, offset) {
        let Some(span) = declared_at(indexes, &target) else {
            return Ok(None);
        };
        places.push((target.key.clone(), span));
        places.extend(indexes.references(&target));
    } else {
        let Some(file) = indexes.get(key) else {
            return Ok(None);
        };
        let Some((_, member, Some(param))) = file.ast.as_ref().and_then(|a| member_at(a, offset))
        else {
            return Ok(None);
        };
        places.push((key.to_string(), param.name.span));
        let keeps_wire = param.attrs.iter().any(|a| a.name.name == "json_name");
        if !keeps_wire {
            warning = Some(format!(
                "renaming parameter `{}` of `{}` changes its name on the wire: clients that send `{}` will be refused; add @json_name(\"{}\") to keep it",
                param.name.name, member.name.name, param.name.name, param.name.name
            ));
        }
    }
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for (k, span) in places {
        let Some(loc) = location(indexes, &k, span) else {
            continue;
        };
        changes
            .entry(loc.uri)
            .or_default()
            .push(TextEdit::new(loc.range, new_name.to_string()));
    }
    Ok(Some(Renamed {
        edit: WorkspaceEdit::new(changes),
        warning,
    }))
}

/// The range `prepareRename` answers: the name under the cursor, when it can be renamed.
pub fn prepare_rename(indexes: &mut Indexes<'_>, key: &str, offset: usize) -> Option<Range> {
    let file = indexes.get(key)?;
    let span = if let Some(r) = file.ref_at(offset) {
        indexes.resolve(key, &r.path)?;
        r.name_span()
    } else if let Some(item) = file.decl_at(offset) {
        file.type_decl(&item.name().name)?;
        item.name().span
    } else {
        let (_, _, param) = member_at(file.ast.as_ref()?, offset)?;
        param?.name.span
    };
    Some(file.lines.range(&file.text, span))
}
