package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import io.quotaflow.settings.ClusterSettings;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.ConfigValues;
import io.quotaflow.settings.TopicNames;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The options of every command that talks to a cluster ({@code @Mixin}): {@code --config FILE},
 * {@code --bootstrap-servers}, {@code --topics-prefix} and {@code -X key=value}. Each is also read
 * from the config file and the {@code QUOTAFLOW_*} environment (see {@link ConfigLoader}), so
 * nothing here is required on the command line; a configuration problem is a usage error (exit 2)
 * naming the key and where its value came from.
 */
public final class KafkaConnectionOptions implements ReadsEnvironment {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--config", paramLabel = "FILE", order = 100,
            description = "Properties file of settings (docs/configuration.md); "
                    + "QUOTAFLOW_* variables override it, flags override both.")
    Path configFile;

    @Option(names = {"--bootstrap-servers", "--bootstrap-server"}, paramLabel = "HOST:PORT[,...]", order = 101,
            description = "Kafka bootstrap servers, e.g. localhost:9092 "
                    + "(or QUOTAFLOW_BOOTSTRAP_SERVERS, or bootstrap.servers in --config).")
    String bootstrapServers;

    @Option(names = "--topics-prefix", paramLabel = "PREFIX", order = 102,
            description = "Prefix of every quotaflow topic name (topics.prefix; default none).")
    String topicsPrefix;

    @Option(names = {"-X", "--kafka-property", "--client-property"}, paramLabel = "KEY=VALUE", order = 103,
            description = {"Kafka client property, repeatable (same as kafka.KEY in --config or "
                    + "QUOTAFLOW_KAFKA_KEY); overrides quotaflow's defaults. Examples:",
                    "  -X security.protocol=SASL_SSL",
                    "  -X sasl.mechanism=PLAIN"})
    Map<String, String> clientProperties = new LinkedHashMap<>();

    /** The environment the settings are read from; the command line sets it, tests replace it. */
    Map<String, String> environment = System.getenv();

    /** The variables the distribution's own commands read, accepted beside the keys' ({@link ReadsEnvironment}). */
    private Set<String> extraVariables = Set.of();

    private ConfigValues resolved;

    @Override
    public void environment(Map<String, String> env, Set<String> extraVariables) {
        this.environment = Map.copyOf(env);
        this.extraVariables = Set.copyOf(extraVariables);
        this.resolved = null;
    }

    /**
     * Every source merged, with the command's own flags ({@code commandFlags}, keyed by
     * configuration key; null values are not given). A problem is a {@link ParameterException}.
     */
    ConfigValues settings(Map<String, String> commandFlags) {
        Map<String, String> flags = new LinkedHashMap<>(commandFlags);
        flags.put(Keys.BOOTSTRAP_SERVERS, bootstrapServers);
        flags.put(Keys.TOPICS_PREFIX, topicsPrefix);
        clientProperties.forEach((k, v) -> flags.put("kafka." + k, v));
        try {
            return ConfigLoader.resolve(configFile, environment, flags, extraVariables);
        } catch (IllegalArgumentException e) {
            throw usageError(e);
        }
    }

    /** The cluster settings from every source; bootstrap servers must come from one of them. */
    ClusterSettings cluster() {
        if (resolved == null) {
            resolved = settings(Map.of());
        }
        try {
            return resolved.cluster();
        } catch (IllegalArgumentException e) {
            throw usageError(e);
        }
    }

    /** The config file given with {@code --config}, or null. */
    Path configFile() {
        return configFile;
    }

    public String bootstrapServers() {
        return cluster().bootstrapServers();
    }

    /** The {@code kafka.*} properties of every source ({@code -X} last), prefix removed. */
    public Map<String, Object> clientProperties() {
        return new LinkedHashMap<>(cluster().kafka());
    }

    /** The topic names under {@code topics.prefix}. */
    public TopicNames topics() {
        return cluster().topics();
    }

    /** Where tenants come from and which exist: their input topics under {@code tenants.from=topic|principal}. */
    public io.quotaflow.settings.TenantAccess tenants() {
        cluster();
        try {
            return resolved.tenantAccess();
        } catch (IllegalArgumentException e) {
            throw usageError(e);
        }
    }

    private RuntimeException usageError(IllegalArgumentException e) {
        return mixee == null ? e : new ParameterException(mixee.commandLine(), e.getMessage(), e);
    }
}
