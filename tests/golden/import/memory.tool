package memory;

@open(input) @rename_all("camelCase")
record EntitiesItem {
    /// The name of the entity
    name: string,
    /// The type of the entity
    entity_type: string,
    /// An array of observation contents associated with the entity
    observations: list<string>,
}

@open(input) @rename_all("camelCase")
record RelationsItem {
    /// The name of the entity where the relation starts
    from: string,
    /// The name of the entity where the relation ends
    to: string,
    /// The type of the relation
    relation_type: string,
}

@open(input) @rename_all("camelCase")
record ObservationsItem {
    /// The name of the entity to add the observations to
    entity_name: string,
    /// An array of observation contents to add
    contents: list<string>,
}

@open(input) @rename_all("camelCase")
record DeletionsItem {
    /// The name of the entity containing the observations
    entity_name: string,
    /// An array of observations to delete
    observations: list<string>,
}

@schema_dialect("http://json-schema.org/draft-07/schema#")
service Memory {
    @open
    tool create_entities(entities: list<EntitiesItem>) -> content;

    @open
    tool create_relations(relations: list<RelationsItem>) -> content;

    @open
    tool add_observations(observations: list<ObservationsItem>) -> content;

    @open @rename_all("camelCase")
    tool delete_entities(
        /// An array of entity names to delete
        entity_names: list<string>,
    ) -> content;

    @open
    tool delete_observations(deletions: list<DeletionsItem>) -> content;

    @open
    tool delete_relations(
        /// An array of relations to delete
        relations: list<RelationsItem>,
    ) -> content;

    @open
    tool read_graph() -> content;

    @open
    tool search_nodes(
        /// The search query to match against entity names, types, and observation content
        query: string,
    ) -> content;

    @open
    tool open_nodes(
        /// An array of entity names to retrieve
        names: list<string>,
    ) -> content;
}
