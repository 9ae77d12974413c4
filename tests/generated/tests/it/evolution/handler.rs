// One implementation of `api::Notes`, included by tests/it/evolution.rs against both versions
// of the interface (`api` is v1 or v2): written with `..`, it compiles against both.

pub struct Impl;

impl api::Notes for Impl {
    async fn rename_note(
        &self,
        _: RequestContext,
        api::RenameNoteArgs { id, title, .. }: api::RenameNoteArgs,
    ) -> Result<String, ToolError> {
        Ok(format!("note {id} is now {title:?}"))
    }

    async fn summarize(
        &self,
        _: RequestContext,
        api::SummarizeArgs { tag, .. }: api::SummarizeArgs,
    ) -> Result<String, RpcError> {
        Ok(format!("Summarize the notes tagged {tag}."))
    }

    async fn note(
        &self,
        _: RequestContext,
        api::NoteArgs { id, .. }: api::NoteArgs,
    ) -> Result<String, RpcError> {
        Ok(format!("# Note {id}"))
    }
}
