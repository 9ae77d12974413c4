// Constrained named types as items, variants and parts of other named types, misused.
type Tag = @length(1, 32) @pattern("^[a-z0-9-]+$") string;
type Id = @range(min: 1) u32;
type Loop = list<Loop>;
type Ping = map<string, Pong>;
type Pong = list<Ping>;
type Wider = @length(max: 64) Tag;
type Wait = @pattern("^1") duration;
type Blob = @pattern("^a") bytes;

service Bookmarks {
    tool tag(
        tags: list<Tag> = ["ok", "Not-OK"],
        ids: set<Id> = [1, 0],
        scores: map<string, Tag> = {"a": ""},
    );
}
