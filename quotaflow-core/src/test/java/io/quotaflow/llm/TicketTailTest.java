package io.quotaflow.llm;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TicketTailTest {

    private static String lean(String body, TicketTail.Cut cut) {
        return TicketText.lean(body, EnumSet.of(cut));
    }

    @Test
    void shouldCutAQuotedThreadUnderAnOutlookHeaderToTheEnd() {
        String body = """
                The refund for order 4417 never reached my card, it has been three weeks now and nobody answers.

                From: Support Team <support@example.com>
                Sent: Monday, 3 November 2025 10:12
                To: Maria Souza
                Subject: RE: Your request
                Could you send us the email on your account and a screenshot of the error?
                """;
        assertThat(lean(body, TicketTail.Cut.THREAD))
                .isEqualTo("The refund for order 4417 never reached my card, it has been three weeks now and nobody answers.");
        assertThat(TicketText.lean(body)).as("without the cut, the quoted message stays").contains("screenshot of the error");
    }

    @Test
    void shouldCutAQuotedThreadUnderAGmailHeaderWrappedOverTwoLines() {
        String body = """
                The parcel arrived with a damaged box and two items missing, the courier left it in the rain.

                On Mon, 3 Nov 2025 at 10:16, Support Team
                <support@example.com> wrote:
                We have received your request about your account.

                -----Original Message-----
                From: Maria <maria@example.com>
                Old words.
                """;
        assertThat(lean(body, TicketTail.Cut.THREAD))
                .isEqualTo("The parcel arrived with a damaged box and two items missing, the courier left it in the rain.");
    }

    @Test
    void shouldKeepTheQuotedMessageOfANudgeWithoutItsHeaders() {
        String body = """
                Any update on this?

                Maria Souza
                Tel: +44 20 7946 0000

                From: Support Team <support@example.com>
                Sent: Monday, 3 November 2025 10:12
                To: Maria Souza
                Subject: RE: Your request
                We will get back to you soon.

                On Mon, 3 Nov 2025 at 09:00, Maria <maria@example.com> wrote:
                I was charged twice for my subscription.
                """;
        assertThat(lean(body, TicketTail.Cut.THREAD)).isEqualTo("""
                Any update on this?
                Maria Souza
                Tel: +44 20 7946 0000
                We will get back to you soon.
                I was charged twice for my subscription.""");
    }

    @Test
    void shouldLeaveAMarkedQuoteWithAnInlineReplyToTheBasicCleanUp() {
        String body = """
                Here is the answer to your question, with more detail about the failing export job we run at night.

                On Mon, 3 Nov 2025 at 10:16, Support <support@example.com> wrote:
                > Which version do you use?
                We use version 4.2 and it crashes every night.
                """;
        assertThat(lean(body, TicketTail.Cut.THREAD)).isEqualTo("""
                Here is the answer to your question, with more detail about the failing export job we run at night.
                We use version 4.2 and it crashes every night.""");
    }

    @Test
    void shouldCutADisclaimerParagraphAndKeepWhatFollowsIt() {
        String body = """
                My login stopped working after the password reset.

                CONFIDENTIALITY NOTICE: This e-mail and any attachments are confidential.
                If you received it in error, notify the sender immediately.

                P.S. I am on the Pro plan.
                """;
        assertThat(lean(body, TicketTail.Cut.DISCLAIMER)).isEqualTo("My login stopped working after the password reset.\nP.S. I am on the Pro plan.");
    }

    @Test
    void shouldCutAContactBlockWithoutASignOffButKeepAShortLastSentence() {
        String body = """
                The API returns 502 on every call since this morning.

                Anna Kowalski
                Head of Finance | Blue Harbor Consulting
                Tel: +44 20 7946 7645
                www.kowalski.example.com
                """;
        assertThat(lean(body, TicketTail.Cut.CONTACTS)).isEqualTo("The API returns 502 on every call since this morning.");
        assertThat(lean("The API returns 502.\n\nCall me on +44 20 7946 7645.", TicketTail.Cut.CONTACTS))
                .as("a contact line that is a sentence of the ticket: a block needs its lines short and the ticket something above")
                .isEqualTo("The API returns 502.\nCall me on +44 20 7946 7645.");
        assertThat(lean("+44 20 7946 7645", TicketTail.Cut.CONTACTS)).as("never empties a ticket").isEqualTo("+44 20 7946 7645");
        String tracking = "Where is my parcel?\n\n2025-07-08 13:32:44 Curitiba in transit\n2025-07-09 05:59:53 Porto out for delivery";
        assertThat(lean(tracking, TicketTail.Cut.CONTACTS)).as("a date is no phone number: log lines are no contact block")
                .isEqualTo(TicketText.lean(tracking));
    }

    @Test
    void shouldCutALongTableToItsHeadAndLastRow() {
        StringBuilder body = new StringBuilder("These charges are wrong:\n| Date | Reference | Amount |\n|---|---|---|\n");
        for (int i = 1; i <= 10; i++) {
            body.append("| 2025-10-0").append(i % 10).append(" | REF-").append(i).append(" | 10.00 |\n");
        }
        body.append("Please refund them.");
        assertThat(lean(body.toString(), TicketTail.Cut.TABLES)).isEqualTo("""
                These charges are wrong:
                | Date | Reference | Amount |
                |---|---|---|
                [9 similar rows left out]
                | 2025-10-00 | REF-10 | 10.00 |
                Please refund them.""");
        assertThat(lean("a,b,c\n1,2,3\n4,5,6", TicketTail.Cut.TABLES)).as("a short table stays").isEqualTo("a,b,c\n1,2,3\n4,5,6");
    }

    @Test
    void shouldCutLogShapesTheBasicCleanUpDoesNotKnow() {
        StringBuilder body = new StringBuilder("Checkout fails:\n");
        for (int i = 0; i < 8; i++) {
            body.append("{\"ts\":\"2025-11-03T10:00:0").append(i).append("Z\",\"level\":\"INFO\",\"msg\":\"cache miss\"}\n");
        }
        body.append("Traceback (most recent call last):\n  File \"/app/x.py\", line 3, in run\n  File \"/app/y.py\", line 9, in call\n")
                .append("requests.exceptions.ConnectionError: reset\nIt started today.");
        assertThat(lean(body.toString(), TicketTail.Cut.LOGS)).isEqualTo("""
                Checkout fails:
                {"ts":"2025-11-03T10:00:00Z","level":"INFO","msg":"cache miss"}
                {"ts":"2025-11-03T10:00:01Z","level":"INFO","msg":"cache miss"}
                [9 similar lines left out]
                requests.exceptions.ConnectionError: reset
                It started today.""");
        assertThat(TicketText.lean(body.toString())).as("without the cut, the JSON lines stay").contains("10:00:07Z");
    }

    @Test
    void shouldCutTheBasicLogShapesToTwoAndOneWithTheLogsCut() {
        StringBuilder body = new StringBuilder("Sync is slow:\n");
        for (int i = 0; i < 7; i++) {
            body.append("2025-11-03 10:00:0").append(i).append(" WARN slow upstream\n");
        }
        assertThat(lean(body.toString(), TicketTail.Cut.LOGS)).isEqualTo("""
                Sync is slow:
                2025-11-03 10:00:00 WARN slow upstream
                2025-11-03 10:00:01 WARN slow upstream
                [4 similar lines left out]
                2025-11-03 10:00:06 WARN slow upstream""");
    }

    @Test
    void shouldChangeNothingWithoutCuts() {
        String body = "Export broken.\n\nFrom: A <a@example.com>\nSent: today\nold words";
        assertThat(TicketText.lean(body, Set.of())).isEqualTo(TicketText.lean(body)).contains("old words");
    }
}
