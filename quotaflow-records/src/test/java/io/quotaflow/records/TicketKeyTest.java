package io.quotaflow.records;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TicketKeyTest {

    @Test
    void shouldKeyTheDefaultTenantByIdAlone() {
        assertThat(TicketKey.key(null, "1042")).isEqualTo("1042");
        assertThat(TicketKey.key("default", "1042")).isEqualTo("1042");
        assertThat(TicketKey.parse("1042")).isEqualTo(new TicketKey("default", "1042"));
    }

    @Test
    void shouldKeyOtherTenantsAsTenantColonId() {
        assertThat(TicketKey.key("acme", "1042")).isEqualTo("acme:1042");
        assertThat(TicketKey.parse("acme:1042")).isEqualTo(new TicketKey("acme", "1042"));
        assertThat(TicketKey.key("acme", "1042")).isNotEqualTo(TicketKey.key("globex", "1042"));
    }

    @Test
    void shouldReadBackEveryKeyAsTheIdentityItWasMadeFrom() {
        for (TicketKey k : new TicketKey[] {new TicketKey("default", "a:b"), new TicketKey("acme", "a:b:c"),
                new TicketKey("acme", ""), new TicketKey("default", "x"), new TicketKey("globex", "1042")}) {
            assertThat(TicketKey.parse(k.key())).isEqualTo(k);
        }
        assertThat(TicketKey.key("default", "a:b")).isEqualTo("default:a:b");
    }

    @Test
    void shouldRefuseTenantNamesWithAColon() {
        assertThatThrownBy(() -> new TicketKey("ac:me", "1")).isInstanceOf(IllegalArgumentException.class);
        assertThat(TicketKey.validTenant("acme corp")).isTrue();
        assertThat(TicketKey.validTenant("ac:me")).isFalse();
        assertThat(TicketKey.validTenant("a\nb")).isFalse();
        assertThat(TicketKey.validTenant("x".repeat(129))).isFalse();
    }

    @Test
    void shouldRejectATicketWhoseTenantCannotBeKeyed() {
        TicketParser.Parsed parsed = TicketParser.parse("{\"id\":\"1\",\"body\":\"b\",\"tenant\":\"a:b\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(parsed).isEqualTo(new TicketParser.Invalid(TicketParser.BAD_TENANT));
    }
}
