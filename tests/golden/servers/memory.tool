// The `memory` reference server of modelcontextprotocol/servers (src/memory, TypeScript,
// `McpServer.registerTool` with zod raw shapes, zod 4 `toJSONSchema`, draft-7). In io
// "input" (inputSchema) zod writes no additionalProperties, so the argument records are
// @open; in io "output" (outputSchema) every object is closed, so results use closed twins
// of `EntitySchema` and `RelationSchema`. See README.md.
package servers.memory;

// `EntitySchema` as an argument.
@open
@rename_all("camelCase")
record Entity {
    @description("The name of the entity")
    name: string,
    @description("The type of the entity")
    entity_type: string,
    @description("An array of observation contents associated with the entity")
    observations: list<string>,
}

// `RelationSchema` as an argument.
@open
@rename_all("camelCase")
record Relation {
    @description("The name of the entity where the relation starts")
    from: string,
    @description("The name of the entity where the relation ends")
    to: string,
    @description("The type of the relation")
    relation_type: string,
}

@open
@rename_all("camelCase")
record ObservationAddition {
    @description("The name of the entity to add the observations to")
    entity_name: string,
    @description("An array of observation contents to add")
    contents: list<string>,
}

@open
@rename_all("camelCase")
record ObservationDeletion {
    @description("The name of the entity containing the observations")
    entity_name: string,
    @description("An array of observations to delete")
    observations: list<string>,
}

// `EntitySchema` in a result (closed).
@rename_all("camelCase")
record EntityOut {
    @description("The name of the entity")
    name: string,
    @description("The type of the entity")
    entity_type: string,
    @description("An array of observation contents associated with the entity")
    observations: list<string>,
}

// `RelationSchema` in a result (closed).
@rename_all("camelCase")
record RelationOut {
    @description("The name of the entity where the relation starts")
    from: string,
    @description("The name of the entity where the relation ends")
    to: string,
    @description("The type of the relation")
    relation_type: string,
}

record CreatedEntities {
    entities: list<EntityOut>,
}

record CreatedRelations {
    relations: list<RelationOut>,
}

@rename_all("camelCase")
record AddedObservations {
    entity_name: string,
    added_observations: list<string>,
}

record AddObservationsResult {
    results: list<AddedObservations>,
}

record DeleteResult {
    success: bool,
    message: string,
}

record Graph {
    entities: list<EntityOut>,
    relations: list<RelationOut>,
}

service Memory {
    @title("Create Entities")
    @description("Create multiple new entities in the knowledge graph")
    @read_only(false) @destructive(false) @idempotent(false) @open_world(false)
    @open tool create_entities(entities: list<Entity>) -> CreatedEntities;

    @title("Create Relations")
    @description("Create multiple new relations between entities in the knowledge graph. Relations should be in active voice")
    @read_only(false) @destructive(false) @idempotent(false) @open_world(false)
    @open tool create_relations(relations: list<Relation>) -> CreatedRelations;

    @title("Add Observations")
    @description("Add new observations to existing entities in the knowledge graph")
    @read_only(false) @destructive(false) @idempotent(false) @open_world(false)
    @open tool add_observations(observations: list<ObservationAddition>) -> AddObservationsResult;

    @title("Delete Entities")
    @description("Delete multiple entities and their associated relations from the knowledge graph")
    @read_only(false) @destructive @idempotent @open_world(false)
    @rename_all("camelCase")
    @open tool delete_entities(
        @description("An array of entity names to delete")
        entity_names: list<string>,
    ) -> DeleteResult;

    @title("Delete Observations")
    @description("Delete specific observations from entities in the knowledge graph")
    @read_only(false) @destructive @idempotent @open_world(false)
    @open tool delete_observations(deletions: list<ObservationDeletion>) -> DeleteResult;

    @title("Delete Relations")
    @description("Delete multiple relations from the knowledge graph")
    @read_only(false) @destructive @idempotent @open_world(false)
    @open tool delete_relations(
        @description("An array of relations to delete")
        relations: list<Relation>,
    ) -> DeleteResult;

    @title("Read Graph")
    @description("Read the entire knowledge graph")
    @read_only @destructive(false) @idempotent @open_world(false)
    @open tool read_graph() -> Graph;

    @title("Search Nodes")
    @description("Search for nodes in the knowledge graph based on a query")
    @read_only @destructive(false) @idempotent @open_world(false)
    @open tool search_nodes(
        @description("The search query to match against entity names, types, and observation content")
        query: string,
    ) -> Graph;

    @title("Open Nodes")
    @description("Open specific nodes in the knowledge graph by their names")
    @read_only @destructive(false) @idempotent @open_world(false)
    @open tool open_nodes(
        @description("An array of entity names to retrieve")
        names: list<string>,
    ) -> Graph;

    @title("Knowledge Graph")
    @description("The full knowledge graph with all entities and relations")
    @uri("memory://knowledge-graph") @name("knowledge-graph") @mime("application/json")
    resource knowledge_graph() -> string;
}
