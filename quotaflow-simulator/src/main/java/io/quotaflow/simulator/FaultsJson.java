package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * The JSON form of {@link Faults}, served by {@code GET /admin/faults} and accepted back by
 * {@code POST /admin/faults}: {@code {"p500":0.1,...,"outages":["30:90"],"failAuth":false}}.
 */
final class FaultsJson {

    static final List<String> FIELDS =
            List.of("p500", "p503", "p529", "pMalformed", "pMissingItem", "pHang", "pStallBody", "outages", "failAuth");

    private FaultsJson() {
    }

    static ObjectNode toJson(Faults f) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("p500", f.p500());
        json.put("p503", f.p503());
        json.put("p529", f.p529());
        json.put("pMalformed", f.pMalformed());
        json.put("pMissingItem", f.pMissingItem());
        json.put("pHang", f.pHang());
        json.put("pStallBody", f.pStallBody());
        ArrayNode outages = json.putArray("outages");
        f.outages().forEach(o -> outages.add(o.toString()));
        json.put("failAuth", f.failAuth());
        return json;
    }

    /**
     * Faults from their JSON form; fields left out are off. Outages are {@code "START:END"} or
     * {@code "MODEL@START:END"} strings or {@code {"start":S,"end":E}} objects (with an optional
     * {@code "model"}), in seconds from the simulator's start.
     *
     * @throws IllegalArgumentException for an unknown field, a wrong type or an invalid value
     */
    static Faults fromJson(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("The body must be a JSON object with some of the fields " + FIELDS);
        }
        json.fieldNames().forEachRemaining(name -> {
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("Unknown fault field '" + name + "'; known fields: " + FIELDS);
            }
        });
        Faults.Builder b = Faults.builder()
                .p500(probability(json, "p500")).p503(probability(json, "p503")).p529(probability(json, "p529"))
                .pMalformed(probability(json, "pMalformed")).pMissingItem(probability(json, "pMissingItem"))
                .pHang(probability(json, "pHang")).pStallBody(probability(json, "pStallBody"));
        JsonNode outages = json.get("outages");
        if (outages != null && !outages.isNull()) {
            if (!outages.isArray()) {
                throw new IllegalArgumentException("'outages' must be an array of \"START:END\" strings");
            }
            for (JsonNode o : outages) {
                b.outage(outage(o));
            }
        }
        JsonNode failAuth = json.get("failAuth");
        if (failAuth != null && !failAuth.isNull()) {
            if (!failAuth.isBoolean()) {
                throw new IllegalArgumentException("'failAuth' must be true or false: " + failAuth);
            }
            b.failAuth(failAuth.booleanValue());
        }
        return b.build();
    }

    private static Outage outage(JsonNode o) {
        if (o.isTextual()) {
            return Outage.parse(o.asText());
        }
        if (o.isObject() && o.path("start").isNumber() && o.path("end").isNumber()
                && (!o.has("model") || o.get("model").isTextual())) {
            String model = o.has("model") ? o.get("model").asText() + "@" : "";
            return Outage.parse(model + o.get("start").decimalValue().toPlainString() + ":"
                    + o.get("end").decimalValue().toPlainString());
        }
        throw new IllegalArgumentException("an outage must be a \"[MODEL@]START:END\" string or "
                + "{\"start\":S,\"end\":E[,\"model\":M]}: " + o);
    }

    private static double probability(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.isNumber()) {
            throw new IllegalArgumentException("'" + field + "' must be a number in [0, 1]: " + value);
        }
        return value.doubleValue();
    }
}
