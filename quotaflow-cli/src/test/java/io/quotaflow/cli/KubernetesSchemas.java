package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubernetes 1.30 object schemas of the kinds deploy/kubernetes uses
 * (src/test/resources/kubernetes/README.md), made strict as kubectl's field validation is: an
 * unknown or misspelt field anywhere in a manifest is a problem, as is a wrong type.
 */
final class KubernetesSchemas {

    /** apiVersion/kind ⇒ the definition that describes it. */
    private static final Map<String, String> KINDS = Map.of(
            "apps/v1/StatefulSet", "kubernetes_apps_StatefulSet",
            "v1/Service", "kubernetes_core_Service",
            "v1/ConfigMap", "kubernetes_core_ConfigMap",
            "policy/v1/PodDisruptionBudget", "kubernetes_policy_v1_PodDisruptionBudget",
            "networking.k8s.io/v1/NetworkPolicy", "kubernetes_networking_v1_NetworkPolicy",
            "monitoring.coreos.com/v1/ServiceMonitor", "os_monitoring_v1_ServiceMonitor");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectNode definitions;
    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7);

    private KubernetesSchemas(ObjectNode definitions) {
        this.definitions = definitions;
    }

    /** Loads the vendored definitions and makes them strict. */
    static KubernetesSchemas load() {
        try (InputStream in = KubernetesSchemas.class.getResourceAsStream("/kubernetes/k8s-1.30-definitions.json")) {
            if (in == null) {
                throw new IllegalStateException("/kubernetes/k8s-1.30-definitions.json is not on the test classpath");
            }
            ObjectNode definitions = (ObjectNode) new ObjectMapper().readTree(in).get("definitions");
            definitions.fields().forEachRemaining(e -> strict((ObjectNode) e.getValue()));
            definitions.set("kubernetes_apimachinery_pkg_util_intstr_IntOrString", anyOf("integer", "string"));
            definitions.set("kubernetes_resource_Quantity", anyOf("string", "number"));
            return new KubernetesSchemas(definitions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether there is a schema for {@code object}'s apiVersion and kind. */
    boolean knows(JsonNode object) {
        return definitionOf(object).isPresent();
    }

    /** What is wrong with {@code object}, one line each (empty when it is valid); a kind without a schema is a problem. */
    List<String> problems(JsonNode object) {
        Optional<String> definition = definitionOf(object);
        if (definition.isEmpty()) {
            return List.of("no schema for apiVersion " + object.path("apiVersion").asText("(none)") + ", kind "
                    + object.path("kind").asText("(none)") + " (known: " + KINDS.keySet() + ")");
        }
        ObjectNode root = NODES.objectNode();
        root.put("$schema", "http://json-schema.org/draft-07/schema#");
        root.putArray("allOf").addObject().put("$ref", "#/definitions/" + definition.get());
        root.set("definitions", definitions);
        JsonSchema schema = factory.getSchema(root);
        List<String> problems = new ArrayList<>();
        for (ValidationMessage message : schema.validate(object)) {
            problems.add(message.getMessage());
        }
        return problems;
    }

    private static Optional<String> definitionOf(JsonNode object) {
        return Optional.ofNullable(KINDS.get(object.path("apiVersion").asText() + "/" + object.path("kind").asText()));
    }

    /**
     * An object schema with properties accepts no other property. fabric8 marks {@code apiVersion}
     * and {@code kind} {@code "required": true} (draft-03's spelling) wherever they appear, nested
     * objects such as volume claim templates included, where Kubernetes does not require them: the
     * marks are dropped, and {@link #problems} requires both of the top-level object only (it finds
     * the schema by them).
     */
    private static void strict(ObjectNode schema) {
        JsonNode properties = schema.get("properties");
        if (properties instanceof ObjectNode props) {
            for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext();) {
                if (it.next().getValue() instanceof ObjectNode p) {
                    if (p.path("required").isBoolean()) {
                        p.remove("required");
                    }
                    p.remove("default");
                    strict(p);
                }
            }
            if (!schema.path("additionalProperties").isObject()) {
                schema.put("additionalProperties", false);
            }
        }
        if (schema.get("items") instanceof ObjectNode items) {
            strict(items);
        }
        if (schema.get("additionalProperties") instanceof ObjectNode values) {
            strict(values);
        }
    }

    private static ObjectNode anyOf(String... types) {
        ObjectNode schema = NODES.objectNode();
        ArrayNode type = schema.putArray("type");
        for (String t : types) {
            type.add(t);
        }
        return schema;
    }
}
