package io.quotaflow.routing;


import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import io.quotaflow.settings.ModelSettings;

/**
 * Names the quota shared by all calls with the same base URL, API key and model. The name is a
 * hash, so the key never appears in topics, stores, logs or metrics.
 */
public final class QuotaScope {

    private QuotaScope() {
    }

    public static String of(ModelSettings model) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(model.baseUrl().toString().getBytes(StandardCharsets.UTF_8));
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
