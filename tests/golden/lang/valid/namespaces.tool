// Tools, resources and prompts are separate namespaces: one name may be a tool, a resource
// and a prompt of one service.
package golden.namespaces;

service Notes {
    tool summarize(text: string) -> string;
    @uri("notes://summary/{id}") resource summarize(id: string) -> string;
    prompt summarize(topic: string) -> string;
    prompt summarize_prompt(topic: string) -> string;
}
