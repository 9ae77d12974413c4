@schema_dialect( "http://json-schema.org/draft-07/schema#" )
package fmt.listing_forms;
@open( input )
record Entity { name : string }
service Memory {
  @title( tool : "Create entities" ,annotations:"Create Entities" ) @execution( task_support : forbidden )
  tool create_entities( entities : list<Entity> ) -> Entity ;
  @title(annotations:"Read graph")   tool read_graph();
}
