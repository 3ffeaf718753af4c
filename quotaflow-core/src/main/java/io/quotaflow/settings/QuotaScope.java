package io.quotaflow.settings;


import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names the quota shared by all calls with the same base URL, API key and model. The name is a
 * hash, so the key never appears in topics, stores, logs or metrics.
 */
public final class QuotaScope {

    private QuotaScope() {
    }

    /**
     * The base URL as one provider quota is named by: scheme and host in lower case, the scheme's
     * default port left out, no trailing slash, no query or fragment; so {@code http://LOCALHOST/v1/}
     * and {@code http://localhost:80/v1} are one quota. The path keeps its case (servers may tell
     * {@code /V1} from {@code /v1}); credentials in it stay part of the identity (hashed, never shown).
     */
    public static String canonical(java.net.URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        String host = url.getHost() == null ? "" : url.getHost().toLowerCase(java.util.Locale.ROOT);
        int port = url.getPort();
        if (("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443)) {
            port = -1;
        }
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String user = url.getRawUserInfo() == null ? "" : url.getRawUserInfo() + "@";
        return scheme + "://" + user + host + (port < 0 ? "" : ":" + port) + path;
    }

    /**
     * The dispatch partition that owns {@code scope} among {@code partitions}: a hash of the scope's name
     * (itself a hash of base URL, key and model), so that it depends on nothing but the scope and the
     * partition count. Adding, removing or reordering routes, or two instances on two configurations
     * during a roll-out, never moves a scope (docs/design.md, "Scope ownership"). Two scopes may share a
     * partition; each still has exactly one owner.
     */
    public static int dispatchPartition(String scope, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        // murmur2, as Kafka's own key partitioning: stable across JVMs and versions, unlike String.hashCode's contract
        return org.apache.kafka.common.utils.Utils.toPositive(
                org.apache.kafka.common.utils.Utils.murmur2(scope.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    public static String of(ModelSettings model) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(canonical(model.baseUrl()).getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(model.apiKey().reveal().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(model.model().getBytes(StandardCharsets.UTF_8));
            return "scope-" + HexFormat.of().formatHex(sha.digest(), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
