package io.quotaflow.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;


/**
 * The declaration of one topic, read from {@code topics/NAME.json}:
 *
 * <pre>{@code
 * {"name":"tickets.standard","partitions":6,"replicationFactor":3,
 *  "configs":{"retention.ms":"604800000","cleanup.policy":"delete","min.insync.replicas":"2"}}
 * }</pre>
 *
 * <p>{@code partitions} is a minimum (partition counts are only ever raised),
 * {@code replicationFactor} the wanted factor, capped at the number of live brokers when a topic
 * is created, and {@code configs} the topic-level settings to enforce; settings not listed are
 * left alone. Unknown JSON fields are rejected to catch typos.
 *
 * @param name              the topic name
 * @param partitions        the partition count, at least 1
 * @param replicationFactor the replication factor, at least 1
 * @param configs           topic configs (values as strings), never {@code null}
 */
public record TopicSpec(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) int partitions,
        @JsonProperty(required = true) int replicationFactor,
        Map<String, String> configs) {

    /** The topics bundled with quotaflow, in the jar under {@code topics/NAME.json}. */
    public static final List<String> BUNDLED_TOPICS = List.of(
            "tickets.interactive",
            "tickets.standard",
            "tickets.bulk",
            "tickets.retry",
            "tickets.classified",
            "tickets.dlq",
            "tickets.handoff");

    /** Where the bundled declarations live, on the classpath and at the repository root. */
    public static final String RESOURCE_DIR = "topics";

    private static final Pattern LEGAL_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    public TopicSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("topic name is missing");
        }
        if (!LEGAL_NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("invalid topic name '" + name
                    + "': use 1 to 249 characters among ASCII letters, digits, '.', '_' and '-'");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException(name + ": partitions must be at least 1, was " + partitions);
        }
        if (replicationFactor < 1 || replicationFactor > Short.MAX_VALUE) {
            throw new IllegalArgumentException(
                    name + ": replicationFactor must be at least 1, was " + replicationFactor);
        }
        Map<String, String> copy = new LinkedHashMap<>();
        if (configs != null) {
            configs.forEach((key, value) -> {
                if (key == null || key.isBlank() || value == null) {
                    throw new IllegalArgumentException(name + ": config '" + key + "' has no value");
                }
                copy.put(key.trim(), value.trim());
            });
        }
        configs = Collections.unmodifiableMap(copy);
    }

    /** This declaration for the topic {@code prefix + name} (a deployment's {@code topics.prefix}). */
    public TopicSpec withPrefix(String prefix) {
        return prefix == null || prefix.isEmpty() ? this : new TopicSpec(prefix + name, partitions, replicationFactor, configs);
    }

    /** Parses one declaration. */
    public static TopicSpec parse(InputStream json, String source) {
        try {
            return MAPPER.readValue(json, TopicSpec.class);
        } catch (IOException e) {
            // a validation failure in the constructor arrives wrapped by Jackson
            String reason = e.getCause() instanceof IllegalArgumentException invalid
                    ? invalid.getMessage() : e.getMessage();
            throw new IllegalArgumentException("invalid topic declaration " + source + ": " + reason, e);
        }
    }

    /** Reads every {@code *.json} file of a directory, sorted by file name. */
    public static List<TopicSpec> loadDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("topics directory not found: " + dir);
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no *.json topic declarations in " + dir);
        }
        List<TopicSpec> specs = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                specs.add(parse(in, file.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return checkUnique(specs);
    }

    /** Reads the declarations bundled on the classpath under {@code topics/}, in {@link #BUNDLED_TOPICS} order. */
    public static List<TopicSpec> loadBundled() {
        ClassLoader loader = TopicSpec.class.getClassLoader();
        List<TopicSpec> specs = new ArrayList<>();
        for (String topic : BUNDLED_TOPICS) {
            String resource = RESOURCE_DIR + "/" + topic + ".json";
            try (InputStream in = loader.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing classpath resource " + resource);
                }
                TopicSpec spec = parse(in, "classpath:" + resource);
                if (!spec.name().equals(topic)) {
                    throw new IllegalStateException(resource + " declares topic " + spec.name());
                }
                specs.add(spec);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read classpath resource " + resource, e);
            }
        }
        return checkUnique(specs);
    }

    /** The declarations of {@code dirOrNull}, or the bundled ones when it is {@code null}. */
    public static List<TopicSpec> load(Path dirOrNull) {
        return dirOrNull == null ? loadBundled() : loadDirectory(dirOrNull);
    }

    private static List<TopicSpec> checkUnique(List<TopicSpec> specs) {
        Map<String, TopicSpec> byName = new LinkedHashMap<>();
        for (TopicSpec spec : specs) {
            if (byName.putIfAbsent(spec.name(), spec) != null) {
                throw new IllegalArgumentException("topic " + spec.name() + " is declared twice");
            }
        }
        return List.copyOf(specs);
    }
}
