package io.quotaflow.config;

import io.quotaflow.settings.DispatcherSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.TopicNames;

/**
 * A whole run's configuration.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param applicationId    Kafka Streams application id: every instance sharing it shares the work and the quota
 * @param stateDir         local state directory
 * @param httpPort         port of {@code /health/live}, {@code /health/ready}, {@code /metrics}, {@code /status} (0: random, -1: off)
 * @param kafka            extra client properties ({@code kafka.*} keys, prefix removed), security settings included
 * @param dispatcher       model, quota, batching and retry settings
 * @param instanceId       static group-membership id ({@link InstanceId}), null for dynamic membership
 * @param httpBind         address the HTTP endpoints listen on ({@code http.bind}; {@value #DEFAULT_HTTP_BIND}: every interface)
 * @param http             token, TLS and timeouts of the HTTP endpoints ({@code http.auth-token-file}, {@code http.tls.*})
 * @param metrics          what {@code /metrics} serves besides quotaflow's and the JVM's families ({@code metrics.kafka})
 * @param intakeHoldLag    records a stream thread's dispatch partitions may lag before it holds its other inputs
 *                         ({@code intake.hold-dispatch-lag}; 0: never; docs/design.md, "Dispatch first")
 */
public record QuotaflowConfig(String bootstrapServers, String applicationId, Path stateDir, int httpPort,
                              Map<String, String> kafka, DispatcherSettings dispatcher, String instanceId, String httpBind,
                              HttpSettings http, MetricsSettings metrics, long intakeHoldLag) {

    /** Every interface: what a container or a pod needs; {@code 127.0.0.1} keeps the endpoints local. */
    public static final String DEFAULT_HTTP_BIND = "0.0.0.0";

    /** {@code intake.hold-dispatch-lag}'s default. */
    public static final long DEFAULT_INTAKE_HOLD_LAG = 500;

    /** A configuration with the default intake hold. */
    public QuotaflowConfig(String bootstrapServers, String applicationId, Path stateDir, int httpPort,
                           Map<String, String> kafka, DispatcherSettings dispatcher, String instanceId, String httpBind,
                           HttpSettings http, MetricsSettings metrics) {
        this(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, instanceId, httpBind, http, metrics,
                DEFAULT_INTAKE_HOLD_LAG);
    }

    /** A configuration with the default metrics (no Kafka client metrics). */
    public QuotaflowConfig(String bootstrapServers, String applicationId, Path stateDir, int httpPort,
                           Map<String, String> kafka, DispatcherSettings dispatcher, String instanceId, String httpBind,
                           HttpSettings http) {
        this(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, instanceId, httpBind, http, MetricsSettings.DEFAULT);
    }

    /** A configuration with plain HTTP, no token and the default HTTP timeouts. */
    public QuotaflowConfig(String bootstrapServers, String applicationId, Path stateDir, int httpPort,
                           Map<String, String> kafka, DispatcherSettings dispatcher, String instanceId, String httpBind) {
        this(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, instanceId, httpBind, HttpSettings.DEFAULT);
    }

    /** A configuration listening on every interface. */
    public QuotaflowConfig(String bootstrapServers, String applicationId, Path stateDir, int httpPort,
                           Map<String, String> kafka, DispatcherSettings dispatcher, String instanceId) {
        this(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, instanceId, DEFAULT_HTTP_BIND);
    }

    /** A configuration with dynamic group membership. */
    public QuotaflowConfig(String bootstrapServers, String applicationId, Path stateDir, int httpPort,
                           Map<String, String> kafka, DispatcherSettings dispatcher) {
        this(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, null);
    }

    public QuotaflowConfig {
        QuotaSettings.require(bootstrapServers != null && !bootstrapServers.isBlank(), "bootstrap servers are required (--bootstrap-servers)");
        QuotaSettings.require(applicationId != null && applicationId.matches("[A-Za-z0-9._-]+"),
                "application id must be letters, digits, '.', '_' or '-'");
        Objects.requireNonNull(stateDir, "stateDir");
        QuotaSettings.require(httpPort >= -1 && httpPort <= 65535, "http port must be in [-1, 65535]");
        kafka = Map.copyOf(kafka);
        Objects.requireNonNull(dispatcher, "dispatcher");
        QuotaSettings.require(httpBind != null && httpBind.matches("[A-Za-z0-9.:\\[\\]%_-]+"),
                "http.bind must be a host name or an IP address, got '" + httpBind + "'");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(metrics, "metrics");
        QuotaSettings.require(intakeHoldLag >= 0, "intake.hold-dispatch-lag must be at least 0");
    }

    /** This configuration with the HTTP endpoints on {@code bind}. */
    public QuotaflowConfig withHttpBind(String bind) {
        return withHttp(bind, httpPort);
    }

    /** This configuration with the HTTP endpoints on {@code bind}:{@code port}. */
    public QuotaflowConfig withHttp(String bind, int port) {
        return new QuotaflowConfig(bootstrapServers, applicationId, stateDir, port, kafka, dispatcher, instanceId, bind, http, metrics, intakeHoldLag);
    }

    /** This configuration with the HTTP endpoints guarded and timed by {@code settings}. */
    public QuotaflowConfig withHttpSettings(HttpSettings settings) {
        return new QuotaflowConfig(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, instanceId, httpBind, settings, metrics,
                intakeHoldLag);
    }

    /** This configuration with {@code settings} for {@code /metrics} ({@code metrics.kafka}). */
    public QuotaflowConfig withMetrics(MetricsSettings settings) {
        return new QuotaflowConfig(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, instanceId, httpBind, http, settings,
                intakeHoldLag);
    }

    /** This configuration with {@code records} for {@code intake.hold-dispatch-lag}. */
    public QuotaflowConfig withIntakeHoldLag(long records) {
        return new QuotaflowConfig(bootstrapServers, applicationId, stateDir, httpPort, kafka, dispatcher, instanceId, httpBind, http, metrics,
                records);
    }

    /** The topic names under {@code topics.prefix}. */
    public TopicNames topics() {
        return dispatcher.topics();
    }
}
