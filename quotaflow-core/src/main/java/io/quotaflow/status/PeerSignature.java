package io.quotaflow.status;

import io.quotaflow.settings.AccessTokens;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How an instance asks another on a caller's behalf without sending the caller's token: the
 * question carries the caller's tenant ({@value #TENANT}), the time it was asked ({@value #TIME},
 * epoch milliseconds) and an HMAC-SHA256 of both and of the path ({@value #SIGNATURE}), keyed with
 * the SHA-256 digest of the caller's token, which every instance reading the same tokens file
 * knows and no client does. The peer checks the signature against the digests of that tenant's
 * tokens in its own table (a revoked token signs nothing) and applies the same tenant rule as for a
 * client. A signature is good for {@value #WINDOW_MS} ms either side of the peer's clock: a captured
 * question (over plain HTTP) can be replayed only for the same ticket within that window.
 */
public final class PeerSignature {

    public static final String TENANT = "X-Quotaflow-Tenant";
    public static final String TIME = "X-Quotaflow-Peer-Time";
    public static final String SIGNATURE = "X-Quotaflow-Peer-Signature";
    /** How far a signature's time may be from the checking instance's clock. */
    public static final long WINDOW_MS = 60_000;

    private PeerSignature() {
    }

    /** The headers that ask {@code pathAndQuery} for {@code caller} at {@code nowMs}; none for an open API. */
    public static Map<String, String> headers(Caller caller, String pathAndQuery, long nowMs) {
        Map<String, String> headers = new LinkedHashMap<>();
        byte[] key = caller.tokenDigest();
        if (key == null) {
            return headers;
        }
        headers.put(TENANT, caller.tenant());
        headers.put(TIME, Long.toString(nowMs));
        headers.put(SIGNATURE, Base64.getUrlEncoder().withoutPadding().encodeToString(mac(key, caller.tenant(), nowMs, pathAndQuery)));
        return headers;
    }

    /**
     * The caller a peer's question was signed for, if its signature is one of {@code tokens}' for its
     * tenant and its time within the window of {@code nowMs}.
     */
    public static Optional<Caller> verify(AccessTokens tokens, String tenant, String time, String signature, String pathAndQuery,
                                          long nowMs) {
        if (tenant == null || time == null || signature == null) {
            return Optional.empty();
        }
        long at;
        byte[] presented;
        try {
            at = Long.parseLong(time);
            presented = Base64.getUrlDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (Math.abs(nowMs - at) > WINDOW_MS) {
            return Optional.empty();
        }
        for (byte[] key : tokens.digestsOf(tenant)) {
            if (MessageDigest.isEqual(mac(key, tenant, at, pathAndQuery), presented)) {
                return Optional.of(new Caller(tenant, key));
            }
        }
        return Optional.empty();
    }

    private static byte[] mac(byte[] key, String tenant, long at, String pathAndQuery) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(("quotaflow-peer\n" + tenant + "\n" + at + "\n" + pathAndQuery).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
