package io.quotaflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;

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
        Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
        Map<String, String> invalid = new LinkedHashMap<>();
        JsonNode root;
        try {
            root = content == null ? null : Json.MAPPER.readTree(content);
        } catch (Exception e) {
            root = null;
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
