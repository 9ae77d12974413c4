// A prompt whose suffixed method name another prompt has already.
service Notes {
    tool summarize(text: string) -> string;
    prompt summarize(topic: string) -> string;
    prompt summarize_prompt(topic: string) -> string;
}
