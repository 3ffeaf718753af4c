package io.quotaflow.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.quotaflow.records.Json;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The record contract's JSON Schemas ({@code schemas/*.schema.json} in the records jar, draft
 * 2020-12), for tests that check what quotaflow writes: every classification on
 * {@code tickets.classified}, and the headers of every record on {@code tickets.retry} and
 * {@code tickets.dlq}. A record that breaks its schema fails with every problem named.
 */
public final class RecordSchemas {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final JsonSchema TICKET = load("ticket");
    private static final JsonSchema CLASSIFICATION = load("classification");
    private static final JsonSchema DEAD_LETTER = load("dead-letter");

    private RecordSchemas() {
    }

    private static JsonSchema load(String name) {
        String resource = "/schemas/" + name + ".schema.json";
        try (InputStream in = RecordSchemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the classpath (quotaflow-records)");
            }
            return FACTORY.getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What is wrong with a ticket value, empty when it follows {@code ticket.schema.json}. */
    public static List<String> ticketProblems(byte[] value) {
        return problems(TICKET, parse(value));
    }

    /** What is wrong with a {@code tickets.classified} value, empty when it follows {@code classification.schema.json}. */
    public static List<String> classificationProblems(byte[] value) {
        return problems(CLASSIFICATION, parse(value));
    }

    /** What is wrong with the headers of a retry or dead letter, empty when they follow {@code dead-letter.schema.json}. */
    public static List<String> deadLetterProblems(Headers headers) {
        ObjectNode object = Json.MAPPER.createObjectNode();
        for (Header h : headers) {
            object.put(h.key(), h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8));
        }
        return problems(DEAD_LETTER, object);
    }

    /** Fails, naming every problem, unless {@code value} is a classification as its schema says. */
    public static void assertClassification(String key, byte[] value) {
        fail("classification " + key, classificationProblems(value));
    }

    /** Fails, naming every problem, unless {@code headers} are retry or dead-letter headers as their schema says. */
    public static void assertDeadLetterHeaders(String key, Headers headers) {
        fail("dead-letter headers of " + key, deadLetterProblems(headers));
    }

    private static void fail(String what, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new AssertionError(what + " breaks its schema: " + problems);
        }
    }

    private static JsonNode parse(byte[] value) {
        try {
            return Json.MAPPER.readTree(value);
        } catch (IOException e) {
            return Json.MAPPER.getNodeFactory().textNode("not JSON: " + e.getMessage());
        }
    }

    private static List<String> problems(JsonSchema schema, JsonNode node) {
        return schema.validate(node).stream().map(ValidationMessage::getMessage).sorted().toList();
    }
}
