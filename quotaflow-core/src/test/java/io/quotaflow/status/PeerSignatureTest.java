package io.quotaflow.status;

import io.quotaflow.settings.AccessTokens;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A forwarded question's signature holds for its tenant, path and time only, and only while its token is in the table. */
class PeerSignatureTest {

    private static final String ACME = "acme-token-0123456789abcdef";
    private static final String PATH = "/tickets/acme:1042?local=true";
    private static final long NOW = 1_800_000_000_000L;

    private final AccessTokens tokens = AccessTokens.parse(ACME + " acme\n");
    private final Caller acme = new Caller("acme", AccessTokens.digest(ACME));

    private Map<String, String> signed(String path, long at) {
        return PeerSignature.headers(acme, path, at);
    }

    private static java.util.Optional<Caller> verify(AccessTokens tokens, Map<String, String> h, String tenant, String path, long now) {
        return PeerSignature.verify(tokens, tenant, h.get(PeerSignature.TIME), h.get(PeerSignature.SIGNATURE), path, now);
    }

    @Test
    void shouldAcceptTheSignatureForItsTenantPathAndTimeOnly() {
        Map<String, String> h = signed(PATH, NOW);

        assertThat(h.get(PeerSignature.TENANT)).isEqualTo("acme");
        assertThat(h.values()).noneMatch(v -> v.contains(ACME));
        assertThat(verify(tokens, h, "acme", PATH, NOW + 1_000)).map(Caller::tenant).contains("acme");
        assertThat(verify(tokens, h, "globex", PATH, NOW)).as("another tenant's name").isEmpty();
        assertThat(verify(tokens, h, "acme", "/tickets/acme:1043?local=true", NOW)).as("another path").isEmpty();
        assertThat(verify(tokens, h, "acme", PATH, NOW + PeerSignature.WINDOW_MS + 1)).as("too old").isEmpty();
        assertThat(verify(tokens, h, "acme", PATH, NOW - PeerSignature.WINDOW_MS - 1)).as("from the future").isEmpty();
        assertThat(verify(AccessTokens.parse("acme-other-0123456789abcdef acme\n"), h, "acme", PATH, NOW)).as("a revoked token").isEmpty();
        assertThat(PeerSignature.verify(tokens, "acme", "x", "%%", PATH, NOW)).as("garbage").isEmpty();
    }

    @Test
    void shouldSignNothingForAnOpenApi() {
        assertThat(PeerSignature.headers(Caller.OPEN, PATH, NOW)).isEmpty();
    }
}
