package io.quotaflow.llm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks a model's answer against the batch it was asked about: the content must be JSON
 * {@code {"results":[{"id","category","urgency"}]}}, every id of the batch answered exactly once,
 * values inside the closed sets. Ids the batch did not contain are ignored (and reported by count).
 *
 * <p>An answer cut at {@code max_tokens} ({@code finish_reason=length}) is not valid JSON; its results
 * array's entries that were closed before the cut are read as any others (Jackson's streaming parser,
 * up to the cut), so only the tickets the cut took are asked again. An entry is kept only once its
 * closing brace was read: a value cut mid-way never reads as a shorter label. A complete answer that is
 * not JSON stays malformed as a whole.
 */
public final class AnswerValidator {

    private final Set<String> categories;
    private final Set<String> urgencies;

    public AnswerValidator(List<String> categories, List<String> urgencies) {
        this.categories = Set.copyOf(categories);
        this.urgencies = Set.copyOf(urgencies);
    }

    /** Valid labels and, for every other batch id, the reason it is not valid. */
    public record Validation(Map<String, ModelOutcome.Label> labels, Map<String, String> invalid, int unknownIds) {
    }

    public Validation validate(String content, List<String> batchIds) {
        return validate(content, batchIds, false);
    }

    /**
     * @param truncated the answer was cut at {@code max_tokens}: its entries closed before the cut count
     */
    public Validation validate(String content, List<String> batchIds, boolean truncated) {
        Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
        Map<String, String> invalid = new LinkedHashMap<>();
        JsonNode root;
        try {
            root = content == null ? null : Json.MAPPER.readTree(content);
        } catch (Exception e) {
            root = truncated ? completeEntries(content) : null;
        }
        JsonNode results = root == null ? null : root.get("results");
        if (results == null || !results.isArray()) {
            for (String id : batchIds) {
                invalid.put(id, "malformed answer: not a JSON object with a results array");
            }
            return new Validation(labels, invalid, 0);
        }
        Set<String> wanted = new HashSet<>(batchIds);
        Set<String> seen = new HashSet<>();
        Map<String, String> problems = new LinkedHashMap<>();
        int unknown = 0;
        for (JsonNode entry : results) {
            JsonNode idNode = entry == null ? null : entry.get("id");
            if (idNode == null || !idNode.isValueNode()) {
                continue;
            }
            String id = idNode.asText();
            if (!wanted.contains(id)) {
                unknown++;
                continue;
            }
            if (!seen.add(id)) {
                problems.put(id, "answered more than once");
                labels.remove(id);
                continue;
            }
            String category = lower(entry.get("category"));
            String urgency = lower(entry.get("urgency"));
            if (category == null || !categories.contains(category)) {
                problems.put(id, "category outside the closed set: " + abbreviate(category));
            } else if (urgency == null || !urgencies.contains(urgency)) {
                problems.put(id, "urgency outside the closed set: " + abbreviate(urgency));
            } else {
                labels.put(id, new ModelOutcome.Label(category, urgency));
            }
        }
        for (String id : batchIds) {
            if (problems.containsKey(id)) {
                invalid.put(id, problems.get(id));
                labels.remove(id);
            } else if (!labels.containsKey(id)) {
                invalid.put(id, "missing from the answer");
            }
        }
        return new Validation(labels, invalid, unknown);
    }

    /** {@code {"results":[...]}} with the entries of a cut answer's results array that were closed before the cut. */
    private static JsonNode completeEntries(String content) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ArrayNode results = root.putArray("results");
        try (JsonParser parser = Json.MAPPER.createParser(content)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean isResults = "results".equals(parser.currentName());
                JsonToken value = parser.nextToken();
                if (isResults && value == JsonToken.START_ARRAY) {
                    while (parser.nextToken() == JsonToken.START_OBJECT) {
                        results.add((JsonNode) parser.readValueAsTree());
                    }
                    return root;
                }
                parser.skipChildren();
            }
        } catch (IOException | RuntimeException cut) {
            // the cut: the entries read whole before it are kept
        }
        return results.isEmpty() ? null : root;
    }

    private static String lower(JsonNode node) {
        return node == null || !node.isTextual() ? null : node.asText().strip().toLowerCase(Locale.ROOT);
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "(none)";
        }
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
