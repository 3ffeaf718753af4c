package io.quotaflow.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * {@code quotaflow_build_info{version,kafka_version,java_version} 1}: which build each instance runs,
 * for dashboards ({@code count by (version)}) and for joining on {@code instance}. The version is the
 * Maven project's, filtered into {@code io/quotaflow/metrics/build.properties} at build time.
 */
public final class BuildInfo {

    /** The family, {@code quotaflow_build_info} in Prometheus. */
    public static final String NAME = "quotaflow.build.info";
    static final String UNKNOWN = "unknown";
    private static final String RESOURCE = "/io/quotaflow/metrics/build.properties";

    private BuildInfo() {
    }

    /** The build's version, or {@value #UNKNOWN} when the classes were not built by Maven. */
    public static String version() {
        String v = property(RESOURCE);
        if (v == null) {
            v = BuildInfo.class.getPackage().getImplementationVersion();
        }
        return v == null ? UNKNOWN : v;
    }

    /** The Kafka client library's version (its own {@code kafka/kafka-version.properties}). */
    static String kafkaVersion() {
        String v = property("/kafka/kafka-version.properties");
        return v == null ? UNKNOWN : v;
    }

    private static String property(String resource) {
        try (InputStream in = BuildInfo.class.getResourceAsStream(resource)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "").strip();
                if (!v.isEmpty() && !v.contains("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // not readable: unknown
        }
        return null;
    }

    /** Registers the family with this build's version. */
    public static void register(MeterRegistry registry) {
        register(registry, version());
    }

    static void register(MeterRegistry registry, String version) {
        Gauge.builder(NAME, () -> 1).description("always 1; the labels name the build: quotaflow's version, the Kafka client's and "
                + "the JVM's").tags("version", version, "kafka_version", kafkaVersion(),
                "java_version", System.getProperty("java.version", UNKNOWN)).register(registry);
    }
}
