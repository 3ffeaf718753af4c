package io.quotaflow.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.tokens.TokenCounter;
import io.quotaflow.tokens.TokenCounter.ChatMessage;
import io.quotaflow.records.Json;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the chat-completions request of {@code docs/model-wire-format.md}: a fixed system
 * message, the tickets as one JSON user message, and a strict {@code json_schema} response format
 * whose enums are the configured closed sets. With {@link PromptLevers#LEAN} (the pipeline's), the
 * tickets are numbered within the call ({@link ChatPrompt#wireIds()}), their text is
 * {@link TicketText#lean lean}, and the system message is the short one.
 */
public final class PromptBuilder {

    /**
     * The version of what the model is asked: {@link #SYSTEM_PROMPT}, the ticket framing and the
     * response schema. Part of the classification cache's key (docs/design.md, "Cache"), so an
     * answer to one wording is never served for another: change it with any of them.
     */
    public static final String PROMPT_VERSION = "2";

    /** What a probe call sends as the user's message ({@link #probe}). */
    public static final String PROBE_TEXT = "Reply with OK.";

    /** The prompt tokens a probe is charged: its message with the chat format's overhead, rounded up. */
    static final int PROBE_PROMPT_TOKENS = 16;

    /** The system message: what the closed sets' names do not say, and the answer's shape for providers that ignore the schema. */
    static final String SYSTEM_PROMPT = """
            Classify each support ticket (any language). Urgency: critical = outage, data loss or security incident; \
            high = customer blocked; medium = impaired but working; low = question or request. \
            Reply {"results":[{"id","category","urgency"}]}, one per ticket, its id unchanged.""";

    /** The system message of prompt version 1 (without {@link PromptLevers#compactSystem()}). */
    static final String FULL_SYSTEM_PROMPT = """
            You classify customer support tickets. The user message is a JSON document {"tickets":[...]}; \
            each ticket has an id and a subject and/or body, in any language. For every ticket return exactly one \
            entry {"id","category","urgency"} in "results", using the ticket's id unchanged and only the allowed \
            values. Urgency: critical = outage, data loss or security incident; high = the customer is blocked; \
            medium = impaired but working; low = questions and requests. Answer with the JSON object only.""";

    /** The id a ticket's tokens are counted with under short ids: as many tokens as any id up to "999". */
    private static final String COUNTED_SHORT_ID = "10";

    private final ModelSettings settings;
    private final PromptLevers levers;
    private final String systemPrompt;
    private final TokenCounter counter;
    private final ObjectNode responseFormat;
    private final int fixedTokens;

    /** The pipeline's builder: every lever of {@link PromptLevers#LEAN}. */
    public PromptBuilder(ModelSettings settings) {
        this(settings, PromptLevers.LEAN);
    }

    public PromptBuilder(ModelSettings settings, PromptLevers levers) {
        this.settings = settings;
        this.levers = levers;
        this.systemPrompt = levers.compactSystem() ? SYSTEM_PROMPT : FULL_SYSTEM_PROMPT;
        this.counter = TokenCounter.forEncoding(settings.encoding());
        this.responseFormat = responseFormat(settings.categories(), settings.urgencies());
        this.fixedTokens = counter.countChat(List.of(new ChatMessage("system", systemPrompt), new ChatMessage("user", "{\"tickets\":[]}")));
    }

    /** The levers this builder pulls. */
    public PromptLevers levers() {
        return levers;
    }

    /** Tokens a ticket adds to a prompt (its JSON object and separator). */
    public int itemTokens(ModelItem item) {
        return counter.count(itemJson(item, levers.shortIds() ? COUNTED_SHORT_ID : item.id()).toString()) + 1;
    }

    /** Tokens of a prompt without tickets: system message, framing and reply priming. */
    public int fixedTokens() {
        return fixedTokens;
    }

    /** A prompt for {@code items}, its tokens counted exactly (every message tokenized). */
    /**
     * The one-token call that asks whether a provider takes {@code model}'s calls ({@code quotaflow check}'s,
     * and a halted route's probe): no ticket, {@code max_tokens} 1, {@value #PROBE_TEXT} as the user's
     * message; about ten prompt tokens ({@value #PROBE_PROMPT_TOKENS} charged).
     */
    public static ChatPrompt probe(String model) {
        List<ChatMessage> messages = List.of(new ChatMessage("user", PROBE_TEXT));
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", model);
        body.put("max_tokens", 1);
        body.putArray("messages").addObject().put("role", "user").put("content", PROBE_TEXT);
        return new ChatPrompt(List.of(), List.of(), messages, body, PROBE_PROMPT_TOKENS, 1);
    }

    public ChatPrompt build(List<ModelItem> items, int maxTokens) {
        return build(items, maxTokens, -1);
    }

    /**
     * A prompt for {@code items} whose tokens are {@code promptTokens} when known: the fixed part
     * plus each ticket's {@link #itemTokens}, counted once at intake. Tokenizing every prompt again
     * would double the pipeline's heaviest per-ticket work for a difference of a token or so per
     * ticket at the boundaries, which the calibration to the provider's own count absorbs anyway.
     */
    public ChatPrompt build(List<ModelItem> items, int maxTokens, int promptTokens) {
        ObjectNode user = Json.MAPPER.createObjectNode();
        ArrayNode tickets = user.putArray("tickets");
        List<String> wireIds = new ArrayList<>(items.size());
        for (ModelItem item : items) {
            String wireId = levers.shortIds() ? Integer.toString(wireIds.size() + 1) : item.id();
            wireIds.add(wireId);
            tickets.add(itemJson(item, wireId));
        }
        String userContent;
        try {
            userContent = Json.MAPPER.writeValueAsString(user);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        List<ChatMessage> messages = List.of(new ChatMessage("system", systemPrompt), new ChatMessage("user", userContent));
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", settings.model());
        body.put("temperature", 0);
        body.put("max_tokens", maxTokens);
        ArrayNode msgs = body.putArray("messages");
        for (ChatMessage m : messages) {
            msgs.addObject().put("role", m.role()).put("content", m.content());
        }
        body.set("response_format", responseFormat);
        return new ChatPrompt(List.copyOf(items), List.copyOf(wireIds), messages, body,
                promptTokens >= 0 ? promptTokens : counter.countChat(messages), maxTokens);
    }

    private ObjectNode itemJson(ModelItem item, String wireId) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("id", wireId);
        String subject = levers.leanText() ? TicketText.lean(item.subject()) : item.subject();
        String body = levers.leanText() ? TicketText.lean(item.body(), levers.tailCuts()) : item.body();
        if (subject != null && !subject.isBlank()) {
            node.put("subject", subject);
        }
        if (body != null && !body.isBlank()) {
            node.put("body", body);
        }
        return node;
    }

    static ObjectNode responseFormat(List<String> categories, List<String> urgencies) {
        ObjectNode format = Json.MAPPER.createObjectNode();
        format.put("type", "json_schema");
        ObjectNode jsonSchema = format.putObject("json_schema");
        jsonSchema.put("name", "ticket_classification");
        jsonSchema.put("strict", true);
        ObjectNode schema = jsonSchema.putObject("schema");
        schema.put("type", "object");
        schema.put("additionalProperties", false);
        schema.putArray("required").add("results");
        ObjectNode results = schema.putObject("properties").putObject("results");
        results.put("type", "array");
        ObjectNode item = results.putObject("items");
        item.put("type", "object");
        item.put("additionalProperties", false);
        item.putArray("required").add("id").add("category").add("urgency");
        ObjectNode props = item.putObject("properties");
        props.putObject("id").put("type", "string");
        ObjectNode category = props.putObject("category");
        category.put("type", "string");
        categories.forEach(category.putArray("enum")::add);
        ObjectNode urgency = props.putObject("urgency");
        urgency.put("type", "string");
        urgencies.forEach(urgency.putArray("enum")::add);
        return format;
    }
}
