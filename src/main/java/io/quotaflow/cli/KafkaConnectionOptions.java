package io.quotaflow.cli;

import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --bootstrap-servers} and {@code -X key=value} Kafka client properties, shared by the
 * commands that talk to a cluster ({@code @Mixin}).
 */
public final class KafkaConnectionOptions {

    @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap servers, e.g. localhost:9092.")
    String bootstrapServers;

    @Option(names = {"-X", "--kafka-property", "--client-property"}, paramLabel = "KEY=VALUE",
            description = {"Kafka client property, repeatable; overrides quotaflow's defaults. Examples:",
                    "  -X security.protocol=SASL_SSL",
                    "  -X sasl.mechanism=PLAIN",
                    "  -X compression.type=zstd"})
    Map<String, String> clientProperties = new LinkedHashMap<>();

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The {@code -X} properties, in the order given. */
    public Map<String, Object> clientProperties() {
        return new LinkedHashMap<>(clientProperties);
    }
}
