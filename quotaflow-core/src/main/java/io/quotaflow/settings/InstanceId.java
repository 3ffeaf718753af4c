package io.quotaflow.settings;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The static group-membership id of an instance ({@code group.instance.id}, KIP-345).
 *
 * <p>With a stable id, an instance restarted after a crash rejoins its consumer group as the same
 * member at once and gets its tasks back, instead of waiting out the dead member's session
 * ({@code session.timeout.ms}, 45 s by default) and a rebalance. The default, {@code auto}, derives
 * the id from the host name and the state directory: both survive a restart, and two instances can
 * never share a state directory (Kafka Streams locks it), so two live instances never share an id.
 * {@code none} keeps dynamic membership; any other value is used as it is (one per instance!).
 */
public final class InstanceId {

    public static final String AUTO = "auto";
    public static final String NONE = "none";

    private InstanceId() {
    }

    /** The id to use, or null for dynamic membership. */
    public static String resolve(String setting, String applicationId, Path stateDir) {
        String v = setting == null ? AUTO : setting.strip();
        if (v.isEmpty() || v.equalsIgnoreCase(AUTO)) {
            return derive(applicationId, hostName(), stateDir);
        }
        if (v.equalsIgnoreCase(NONE)) {
            return null;
        }
        if (!v.matches("[A-Za-z0-9._-]{1,200}")) {
            throw new IllegalArgumentException("instance.id must be auto, none, or letters, digits, '.', '_' or '-'");
        }
        return v;
    }

    /** {@code <application id>-<host>-<8 hex digits of the state directory's absolute path>}. */
    static String derive(String applicationId, String host, Path stateDir) {
        String cleanHost = host.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        if (cleanHost.length() > 60) {
            cleanHost = cleanHost.substring(0, 60);
        }
        return applicationId + "-" + cleanHost + "-" + hash(stateDir.toAbsolutePath().normalize().toString());
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.strip();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static String hash(String s) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
