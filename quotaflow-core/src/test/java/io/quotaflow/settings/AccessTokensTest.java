package io.quotaflow.settings;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code http.tokens-file}: {@code TOKEN TENANT} lines, {@code *} an operator; errors name the line, never the token. */
class AccessTokensTest {

    private static final String ACME = "acme-token-0123456789abcdef";
    private static final String OPS = "ops-token-0123456789abcdef";

    @Test
    void shouldMapEachTokenToItsTenantSkippingCommentsAndBlankLines() {
        AccessTokens tokens = AccessTokens.parse("# tenants\n\n" + ACME + "   acme\r\n" + OPS + "\t*\n");

        assertThat(tokens.size()).isEqualTo(2);
        assertThat(tokens.tenantOf(ACME)).contains("acme");
        assertThat(tokens.tenantOf(OPS)).contains(AccessTokens.OPERATOR);
        assertThat(tokens.tenantOf("acme")).isEmpty();
        assertThat(tokens.digestsOf("acme")).hasSize(1);
        assertThat(tokens.toString()).doesNotContain(ACME).doesNotContain("acme");
        assertThat(AccessTokens.none().required()).isFalse();
        assertThat(tokens.and(AccessTokens.operator(Secret.of("legacy-token-0123456789"))).tenantOf("legacy-token-0123456789")).contains("*");
    }

    @Test
    void shouldRejectAWrongLineNamingItsNumberButNotItsToken() {
        assertThatThrownBy(() -> AccessTokens.parse(ACME + " acme\nshort acme\n")).hasMessageContaining("line 2").hasMessageContaining("16");
        assertThatThrownBy(() -> AccessTokens.parse(ACME + "\n")).hasMessageContaining("line 1").hasMessageNotContaining(ACME);
        assertThatThrownBy(() -> AccessTokens.parse(ACME + " ac:me\n")).hasMessageContaining("':'").hasMessageNotContaining(ACME);
        assertThatThrownBy(() -> AccessTokens.parse(ACME + " acme\n" + ACME + " globex\n")).hasMessageContaining("line 2 repeats")
                .hasMessageNotContaining(ACME);
    }
}
