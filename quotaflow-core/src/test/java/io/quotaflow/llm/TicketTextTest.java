package io.quotaflow.llm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TicketTextTest {

    @Test
    void shouldLeaveOutGreetingAndSignOffWithTheNameUnderIt() {
        String body = """
                Hello team,

                I was charged twice for order #482913 on Mar 4.   Please take a look when you get a chance.

                Kind regards,
                Hannah Walker
                """;
        assertThat(TicketText.lean(body))
                .isEqualTo("I was charged twice for order #482913 on Mar 4. Please take a look when you get a chance.");
    }

    @Test
    void shouldLeaveOutPortugueseGreetingAndSignOff() {
        String body = "Olá, equipe de suporte,\n\nO link para redefinir a senha não chega no meu e-mail. É urgente.\n\nAguardo retorno,\nAna Almeida";
        assertThat(TicketText.lean(body)).isEqualTo("O link para redefinir a senha não chega no meu e-mail. É urgente.");
    }

    @Test
    void shouldKeepAFirstLineThatSaysMoreThanHello() {
        assertThat(TicketText.lean("Hi, my invoice is wrong and I was billed twice\nThanks"))
                .isEqualTo("Hi, my invoice is wrong and I was billed twice");
        assertThat(TicketText.lean("Hi, refund please")).isEqualTo("Hi, refund please");
    }

    @Test
    void shouldKeepALongClosingParagraphThatStartsWithThanks() {
        String body = "The export is broken.\n\nThanks for looking, this blocks our month-end close and we cannot continue.";
        assertThat(TicketText.lean(body)).isEqualTo(body.replace("\n\n", "\n"));
    }

    @Test
    void shouldLeaveOutAMailThreadUnderTheCustomersMessage() {
        String body = """
                To whom it may concern,

                I'm trying to invite 9 colleagues to our workspace but the invite button is greyed out.

                Best regards,
                Elizabeth Schmidt
                Globex customer

                Sent from my iPhone

                > On Wed, Oct 29, 2025 at 08:00 AM, Globex Support <support@globex.io> wrote:
                >
                > Hello, we have received your request and created case #7384166.

                >> On Sun, Oct 26, 2025 at 11:00 PM, Elizabeth Schmidt <elizabeth.schmidt@yahoo.com> wrote:
                >>
                >> Any update on this? I haven't heard back.
                """;
        assertThat(TicketText.lean(body)).isEqualTo("I'm trying to invite 9 colleagues to our workspace but the invite button is greyed out.");
    }

    @Test
    void shouldLeaveOutQuotedRepliesAndTheirHeaders() {
        String body = """
                The parcel still has not arrived.

                On Tue, 4 Mar 2025 at 10:12, Support <help@example.com> wrote:
                > Thank you for your message.
                > We will look into it.

                ----- Original message -----
                From: Daniel Taylor <d@example.com>
                Sent: Monday, March 3, 2025 9:01
                Subject: Order 123
                > Where is my order?
                """;
        assertThat(TicketText.lean(body)).isEqualTo("The parcel still has not arrived.");
    }

    @Test
    void shouldCutALongPastedLogToHeadAndTail() {
        StringBuilder body = new StringBuilder("Our webhook calls fail since Monday.\n\n");
        for (int i = 1; i <= 20; i++) {
            body.append("2025-03-0").append(1 + i % 9).append("T10:00:").append(10 + i)
                    .append("Z ERROR [worker-2] request REF-").append(i).append(" failed with status 502\n");
            if (i == 10) {
                body.append('\n');
            }
        }
        body.append("\nPlease look at it immediately.");

        String lean = TicketText.lean(body.toString());

        assertThat(lean.lines().toList()).hasSize(1 + TicketText.LOG_KEEP_HEAD + 1 + TicketText.LOG_KEEP_TAIL + 1);
        assertThat(lean).startsWith("Our webhook calls fail since Monday.\n2025-03-02T10:00:11Z ERROR [worker-2] request REF-1 failed")
                .contains("[15 similar lines left out]")
                .contains("request REF-19 failed").contains("request REF-20 failed")
                .doesNotContain("REF-10 ")
                .endsWith("Please look at it immediately.");
    }

    @Test
    void shouldKeepAShortLogWhole() {
        String body = "Login fails.\n10:01:02 sign-in attempt from 203.0.113.4\n10:01:09 sign-in attempt from 203.0.113.4";
        assertThat(TicketText.lean(body)).isEqualTo(body);
    }

    @Test
    void shouldCollapseRepeatedWhitespaceAndBlankLines() {
        assertThat(TicketText.lean("  The   app\tcrashes \u00A0 on start.\n\n\n\n  It is urgent.  "))
                .isEqualTo("The app crashes on start.\nIt is urgent.");
    }

    @Test
    void shouldLeaveEverythingUnderASignatureDelimiterOut() {
        assertThat(TicketText.lean("Refund for the annual plan, please.\n--\nJohn Smith | ACME Corp | +1 555 0100\nwww.acme.example"))
                .isEqualTo("Refund for the annual plan, please.");
    }

    @Test
    void shouldNeverEmptyATicket() {
        assertThat(TicketText.lean("Thanks,\nBob")).isEqualTo("Thanks, Bob");
        assertThat(TicketText.lean("Hi,")).isEqualTo("Hi,");
        assertThat(TicketText.lean(null)).isNull();
        assertThat(TicketText.lean("")).isEmpty();
    }

    @Test
    void shouldCollapseSpacesAsTheRegularExpressionDoes() {
        java.util.regex.Pattern spaces = java.util.regex.Pattern.compile("[ \\t\\u00A0\\u2000-\\u200B\\u3000]+");
        String[] parts = {"a", "bc", " ", "  ", "\t", "\u00A0", "\u2001", "\u200B", "\u200C", "\u3000", "\u000B", "\uD83D\uDCF1", "é"};
        java.util.Random random = new java.util.Random(42);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder line = new StringBuilder();
            for (int k = random.nextInt(12); k > 0; k--) {
                line.append(parts[random.nextInt(parts.length)]);
            }
            String s = line.toString();
            assertThat(TicketText.collapseSpaces(s)).as("[%s]", s).isEqualTo(spaces.matcher(s).replaceAll(" ").strip());
        }
        String clean = "nothing to collapse here";
        assertThat(TicketText.collapseSpaces(clean)).isSameAs(clean);
    }

    @Test
    void shouldLeaveOutASentFromLineOfFortyWideCharacters() {
        String phone = "\uD83D\uDCF1".repeat(40);
        assertThat(TicketText.lean("The app crashes on login.\nSent from my " + phone)).isEqualTo("The app crashes on login.");
        assertThat(TicketText.lean("The app crashes on login.\nSent from my " + phone + "!"))
                .isEqualTo("The app crashes on login.\nSent from my " + phone + "!");
    }

    @Test
    void shouldCutLogRunsWhateverTheirLinesOpenWith() {
        for (String opening : List.of("[2026-01-02 10:00:01] step", "2026-01-02 step", "10:00:01 step", "ERROR step", "warn step",
                "at io.quotaflow.Step(Step.java:1)", "Caused by: step", "... 3 more", "Trace step", "Debug step", "Info step", "Fatal step")) {
            String run = String.join("\n", java.util.Collections.nCopies(10, opening));
            assertThat(TicketText.lean("It fails:\n" + run + "\nPlease help.")).as(opening)
                    .contains("[5 similar lines left out]").startsWith("It fails:").endsWith("Please help.");
        }
        assertThat(TicketText.lean("It fails:\n" + String.join("\n", java.util.Collections.nCopies(10, "step failed"))))
                .as("not a log line").doesNotContain("left out");
    }

    @Test
    void shouldLeaveOutQuoteHeadersEndingInAColonOrDashes() {
        assertThat(TicketText.lean("Still broken.\n\nOn Mon, 3 Mar 2026, Support <s@example.com> wrote:\n> try again")).isEqualTo("Still broken.");
        assertThat(TicketText.lean("Still broken.\n-----Original Message-----\nFrom: Support\nSent: Monday\nplease try again"))
                .isEqualTo("Still broken.\nplease try again");
    }
}
