package io.quotaflow.ticket;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a {@link WorkItem} in either stored form: the grouped one ({@code identity}, {@code content},
 * {@code journey}, {@code attempts}, {@code sizing}) and the flat one earlier versions wrote, each field a
 * top-level property. A flat field is gathered into its group's object and that group read as if it had been
 * stored grouped; unknown properties are skipped. The grouped form streams straight into the group records.
 */
final class WorkItemReader extends StdDeserializer<WorkItem> {

    /** The groups, by property name. */
    private static final Map<String, Class<?>> GROUPS = Map.of("identity", WorkItem.Identity.class,
            "content", WorkItem.Content.class, "journey", WorkItem.Journey.class, "attempts", WorkItem.Attempts.class,
            "sizing", WorkItem.Sizing.class);

    /** Each field of the flat form, with the group it belongs to. */
    private static final Map<String, String> FLAT = Map.ofEntries(
            Map.entry("id", "identity"), Map.entry("priority", "identity"), Map.entry("tenant", "identity"),
            Map.entry("original", "content"), Map.entry("originalSize", "content"), Map.entry("originalSha256", "content"),
            Map.entry("headers", "content"), Map.entry("contentKey", "content"),
            Map.entry("origin", "journey"), Map.entry("enqueuedAt", "journey"), Map.entry("publishedAt", "journey"),
            Map.entry("deadline", "journey"), Map.entry("routed", "journey"),
            Map.entry("attempt", "attempts"), Map.entry("notBefore", "attempts"), Map.entry("failure", "attempts"),
            Map.entry("replayCount", "attempts"), Map.entry("replayOf", "attempts"),
            Map.entry("tokens", "sizing"), Map.entry("batchCap", "sizing"), Map.entry("maxTokensBoost", "sizing"));

    WorkItemReader() {
        super(WorkItem.class);
    }

    @Override
    public WorkItem deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonToken token = p.currentToken() == JsonToken.START_OBJECT ? p.nextToken() : p.currentToken();
        Map<String, Object> groups = new HashMap<>();
        Map<String, ObjectNode> flat = new HashMap<>();
        for (; token == JsonToken.FIELD_NAME; token = p.nextToken()) {
            String name = p.currentName();
            p.nextToken();
            String group = FLAT.get(name);
            if (GROUPS.containsKey(name)) {
                groups.put(name, ctxt.readValue(p, GROUPS.get(name)));
            } else if (group != null) {
                JsonNode value = ctxt.readTree(p);
                flat.computeIfAbsent(group, g -> ctxt.getNodeFactory().objectNode()).set(name, value);
            } else {
                p.skipChildren();
            }
        }
        for (Map.Entry<String, ObjectNode> legacy : flat.entrySet()) {
            if (!groups.containsKey(legacy.getKey())) {
                groups.put(legacy.getKey(), ctxt.readTreeAsValue(legacy.getValue(), GROUPS.get(legacy.getKey())));
            }
        }
        return new WorkItem((WorkItem.Identity) groups.get("identity"), (WorkItem.Content) groups.get("content"),
                (WorkItem.Journey) groups.get("journey"), (WorkItem.Attempts) groups.get("attempts"),
                (WorkItem.Sizing) groups.get("sizing"));
    }
}
