package io.quotaflow.admin;

import io.quotaflow.settings.ClusterSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the cluster to describe itself once, within {@code cluster.check-timeout-ms}, before a
 * command starts its real clients: an unreachable or misconfigured cluster is then one line naming
 * the servers and where they came from, instead of a stream of client warnings.
 */
public final class ClusterCheck {

    /** What the check found. */
    public sealed interface Result permits Reachable, Unreachable {
    }

    /** The cluster answered. */
    public record Reachable(String clusterId, int brokers) implements Result {
    }

    /** The cluster did not answer, or refused us; {@code reason} is one line. */
    public record Unreachable(String reason) implements Result {
    }

    private ClusterCheck() {
    }

    public static Result check(ClusterSettings cluster) {
        long timeoutMs = cluster.checkTimeout().toMillis();
        Map<String, Object> p = KafkaClients.properties(cluster.bootstrapServers(), cluster.kafka());
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "quotaflow-check");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
        String where = "Kafka at " + cluster.bootstrapServers() + " (" + cluster.origin() + ")";
        try (Admin admin = Admin.create(p)) {
            DescribeClusterResult r = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, timeoutMs)));
            String id = r.clusterId().get(timeoutMs + 1000, TimeUnit.MILLISECONDS);
            int brokers = r.nodes().get(timeoutMs + 1000, TimeUnit.MILLISECONDS).size();
            return new Reachable(id, brokers);
        } catch (ExecutionException e) {
            return unreachable(where, e.getCause() == null ? e : e.getCause(), timeoutMs);
        } catch (TimeoutException e) {
            return unreachable(where, e, timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Unreachable("interrupted while checking " + where);
        } catch (KafkaException e) {
            return new Unreachable("invalid Kafka client settings for " + where + ": " + oneLine(e));
        }
    }

    private static Unreachable unreachable(String where, Throwable cause, long timeoutMs) {
        if (cause instanceof AuthenticationException || cause instanceof AuthorizationException) {
            return new Unreachable(where + " refused the connection: " + oneLine(cause)
                    + " (check the kafka.sasl.* / kafka.ssl.* settings)");
        }
        if (cause instanceof TimeoutException || cause instanceof org.apache.kafka.common.errors.TimeoutException) {
            return new Unreachable(String.format(Locale.ROOT, "cannot reach %s within %.1f s: is the cluster up, and "
                    + "are the servers and kafka.security.protocol right?", where, timeoutMs / 1000.0));
        }
        return new Unreachable("cannot use " + where + ": " + oneLine(cause));
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.replaceAll("\\s+", " ").strip();
    }
}
