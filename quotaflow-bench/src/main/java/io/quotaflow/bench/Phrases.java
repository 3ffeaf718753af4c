package io.quotaflow.bench;

import java.util.List;
import java.util.Map;

/**
 * The sentence pools {@link TicketGenerator} writes tickets from, in English and Portuguese.
 *
 * <p>Each <em>core</em> sentence of a category names that category in words the simulator's
 * {@link io.quotaflow.simulator.KeywordClassifier} knows, and nothing of another category or of an
 * urgency; each urgency sentence names its urgency and no category; fillers name nothing. The
 * <em>confusers</em> deliberately do: a passing mention of another category, an urgency said in
 * words no rule knows, or an innocent "cannot". They are what keeps the simulated model from being
 * trivially right. Placeholders in braces ({@code {order}}, {@code {amount}}, ...) are filled in by
 * the generator.
 */
final class Phrases {

    private Phrases() {
    }

    /** One language's pools. */
    record Language(
            String code,
            String locale,
            List<String> greetings,
            List<String> signOffs,
            Map<String, List<String>> subjects,
            Map<String, List<String>> core,
            Map<String, List<String>> urgency,
            List<String> fillers,
            Map<String, List<String>> mentions,
            List<String> hiddenCritical,
            List<String> hiddenLow,
            List<String> innocentHigh,
            Map<String, List<String>> detailLines,
            String quoteHeader) {
    }

    static final List<String> FIRST_NAMES_EN = List.of("Ahmed", "Susan", "Oliver", "Priya", "Daniel", "Grace", "Tom",
            "Mei", "Lucas", "Hannah", "Kofi", "Emma", "Raj", "Chloe", "Sam");
    static final List<String> LAST_NAMES_EN = List.of("Patel", "Jones", "Smith", "Nguyen", "Brown", "Okafor", "Miller",
            "Chen", "Walker", "Davies", "Khan", "Taylor");
    static final List<String> FIRST_NAMES_PT = List.of("Vinícius", "Ana", "Rafael", "Juliana", "Bruno", "Camila",
            "Thiago", "Fernanda", "Lucas", "Beatriz", "Gustavo", "Larissa", "João", "Mariana");
    static final List<String> LAST_NAMES_PT = List.of("Ferreira", "Souza", "Martins", "Oliveira", "Costa", "Pereira",
            "Almeida", "Ribeiro", "Carvalho", "Gomes", "Lima", "Araújo");
    static final List<String> CITIES = List.of("Curitiba", "Porto Alegre", "Recife", "Lisbon", "Manchester", "Austin",
            "Toronto", "Campinas", "Dublin", "Porto", "Belo Horizonte", "Leeds");
    static final List<String> DEVICES = List.of("an iPhone 15", "a Pixel 8", "a Galaxy S23", "an iPad Air", "a Moto G84");

    static final Language EN = new Language("en", "en-US",
            List.of("Hi,", "Hello,", "Hello team,", "Good morning,", "Dear support,", "Hi there,"),
            List.of("Thanks,", "Kind regards,", "Best,", "Cheers,", "Many thanks,"),
            Map.of(
                    "billing", List.of("Invoice {invoice}", "Double charge on order {order}", "Refund for annual plan",
                            "Receipt for last month", "Billing address on invoices", "Subscription renewal amount"),
                    "technical", List.of("Error on the reports page", "Webhook failures since {date}", "App crashes on start",
                            "Search is very slow", "Broken CSV export", "SDK exception on upload"),
                    "account", List.of("Password reset link", "Change the email on my account", "Two-factor code rejected",
                            "Merge two accounts", "Username after rebrand", "Locked out"),
                    "shipping", List.of("Order {order} tracking", "Parcel arrived damaged", "Package at the wrong address",
                            "Change delivery address", "Shipment lost in transit", "Express shipping took nine days"),
                    "other", List.of("Partnership proposal", "A thank-you note", "Office in {city}?", "Press inquiry",
                            "Remove me from the mailing list", "Student discount", "Conference invitation")),
            Map.of(
                    "billing", List.of(
                            "I was charged twice for order {order} on {date}.",
                            "The invoice {invoice} shows {amount} but our plan costs {amount2} per month.",
                            "Could you send a receipt for the payment made on {date}?",
                            "We cancelled the subscription last month and were still billed {amount}.",
                            "Our finance team needs a corrected invoice with the new company address.",
                            "I would like a refund for the annual plan I bought by mistake.",
                            "The credit card on file expired and the renewal payment failed.",
                            "The price on the checkout page did not match the amount on my bill."),
                    "technical", List.of(
                            "The dashboard shows an error when I open the reports page.",
                            "Our webhook calls have returned HTTP 502 since {date}.",
                            "The mobile app crashes right after the splash screen on {device}.",
                            "Requests to the orders API time out after about thirty seconds.",
                            "Since the last update the search page is very slow.",
                            "The export feature produces a broken CSV file.",
                            "We see an exception in the SDK log when uploading images.",
                            "There is a bug in the date picker: it skips the 31st."),
                    "account", List.of(
                            "The password reset link never reaches my inbox.",
                            "I would like to change the email address on my account.",
                            "Two-factor codes from the authenticator app are rejected at sign in.",
                            "Please merge my two accounts, one was created with my work email.",
                            "My username still shows the old company name after the rebrand.",
                            "I got locked out after too many attempts this morning.",
                            "We need to add a colleague as an admin on the company profile."),
                    "shipping", List.of(
                            "Order {order} was shipped on {date} but the tracking page has not changed since.",
                            "The parcel arrived with a damaged box and two items missing.",
                            "The courier left the package at the wrong address.",
                            "Could you change the delivery address for order {order}?",
                            "My shipment is listed as lost in transit by the carrier.",
                            "We chose express shipping and it took nine days."),
                    "other", List.of(
                            "We are interested in a partnership with your team for the next season.",
                            "I just wanted to say that your support agent Marta was fantastic.",
                            "Do you have an office in {city} where we could meet in person?",
                            "I am a journalist writing about small online stores and would love a quote.",
                            "Please remove my contact details from your marketing list.",
                            "Is there a discount for universities and schools?",
                            "We would like to invite your CEO to speak at our conference in {month}.")),
            Map.of(
                    "critical", List.of(
                            "This is urgent: our whole store is down and customers see a blank page.",
                            "We are losing sales every minute, please treat this as an emergency.",
                            "This looks like a security breach and we need help right now.",
                            "Production is down for all of our users."),
                    "high", List.of(
                            "I cannot finish my work until this is fixed.",
                            "We are blocked and need this resolved as soon as possible.",
                            "Please look at it immediately, our team is stuck.",
                            "Our staff is unable to continue with the month-end close."),
                    "medium", List.of(
                            "It is annoying but we can keep going for now.",
                            "Please take a look when you get a chance.",
                            "It would help to have this sorted this week.",
                            "Let me know if you need anything else from me."),
                    "low", List.of(
                            "No rush, this is just a question for when you have time.",
                            "Just curious whether this is expected.",
                            "This is more of a suggestion than a complaint.",
                            "I was wondering if this is on your roadmap.")),
            List.of(
                    "I have attached a screenshot for reference.",
                    "Our team is based in {city}.",
                    "We have been customers for about {n} years.",
                    "My colleague {name} is in copy.",
                    "The reference number is {ref}.",
                    "I tried again this morning with the same result.",
                    "We use Chrome on Windows 11.",
                    "Thank you in advance for your help.",
                    "Happy to jump on a call if that is easier.",
                    "For context, this started after the change you announced last week.",
                    "The same thing happened to two other people in my team.",
                    "I checked the help center but found nothing about it.",
                    "Our company has around {n}0 employees.",
                    "Please reply to this email rather than opening a new thread."),
            Map.of(
                    "billing", List.of("We pay for the premium plan, in case that matters.",
                            "We pay for the premium plan and the last invoice looked fine, in case that matters."),
                    "technical", List.of("The website was a bit slow today as well.",
                            "The website was a bit slow today as well, with an error now and then."),
                    "account", List.of("I am writing from my personal account because the work one is not set up yet.",
                            "I am writing from my personal account because the work account is not set up yet."),
                    "shipping", List.of("We also have an order that was shipped yesterday, but that one is fine.",
                            "We also have an order that was shipped yesterday and its tracking looks fine.")),
            List.of("Nothing works for any of our customers at the moment and we are losing money."),
            List.of("Whenever you have a moment is fine."),
            List.of("I cannot remember exactly when this started."),
            Map.of(
                    "billing", List.of("{iso}  invoice INV-{n5}  {amount}  open", "{iso}  payment {ref}  {amount}  settled"),
                    "technical", List.of("{iso}T{time}Z ERROR [worker-{n}] request {ref} failed with status 502 after {ms} ms",
                            "{iso}T{time}Z WARN  [worker-{n}] retrying {ref} (attempt {n})",
                            "{iso}T{time}Z ERROR [gateway] upstream timeout on /v2/orders/{n5}"),
                    "account", List.of("{iso} {time}  sign-in attempt from 203.0.113.{n} (Chrome on Windows)",
                            "{iso} {time}  password change requested from 198.51.100.{n}"),
                    "shipping", List.of("{iso} {time}  {city}  shipment in transit", "{iso} {time}  {city}  parcel handed to the courier"),
                    "other", List.of("{iso}  agenda item {n}: introductions and goals for {month}",
                            "{iso}  agenda item {n}: venue, catering and travel for the team")),
            "----- Original message -----");

    static final Language PT = new Language("pt", "pt-BR",
            List.of("Olá,", "Bom dia,", "Boa tarde,", "Boa noite,", "Olá, equipe de suporte,", "Prezados,"),
            List.of("Obrigado,", "Atenciosamente,", "Abraços,", "Grato,", "Aguardo retorno,"),
            Map.of(
                    "billing", List.of("Fatura {invoice}", "Cobrança duplicada no pedido {order}", "Reembolso do plano anual",
                            "Nota fiscal do mês passado", "Segunda via do boleto", "Valor da mensalidade"),
                    "technical", List.of("Erro na página de relatórios", "Falhas no webhook desde {date}", "Aplicativo travou",
                            "Sistema lento", "Exportação quebrada", "Integração com o ERP"),
                    "account", List.of("Redefinir senha", "Alterar e-mail da conta", "Código de autenticação recusado",
                            "Juntar duas contas", "Perfil com nome antigo", "Usuário suspenso"),
                    "shipping", List.of("Rastreio do pedido {order}", "Encomenda chegou danificada", "Pacote no endereço errado",
                            "Alterar endereço de entrega", "Encomenda extraviada", "Frete expresso demorou"),
                    "other", List.of("Proposta de parceria", "Elogio ao atendimento", "Escritório em {city}?",
                            "Pedido de entrevista", "Remover da lista de e-mails", "Desconto para universidades")),
            Map.of(
                    "billing", List.of(
                            "Fui cobrado duas vezes pelo pedido {order} em {date}.",
                            "A fatura {invoice} veio com valor de {amount}, mas o nosso plano é de {amount2}.",
                            "Preciso da nota fiscal do mês passado com o CNPJ correto.",
                            "Cancelei a assinatura no mês passado e ainda veio a cobrança de {amount}.",
                            "Gostaria de pedir o reembolso do plano anual.",
                            "O boleto venceu e preciso de uma segunda via.",
                            "O pagamento pelo cartão de crédito foi recusado na renovação."),
                    "technical", List.of(
                            "O painel mostra um erro quando abro a página de relatórios.",
                            "O aplicativo travou logo depois da tela inicial no {device}.",
                            "As chamadas da API de pedidos demoram e dão timeout.",
                            "Desde a última atualização o sistema está muito lento.",
                            "A exportação gera um arquivo CSV quebrado.",
                            "A integração com o nosso ERP apresenta falhas desde {date}."),
                    "account", List.of(
                            "O link para redefinir a senha não chega no meu e-mail.",
                            "Quero alterar o e-mail de cadastro da minha conta.",
                            "O código de autenticação em dois fatores é recusado no login.",
                            "Preciso juntar duas contas que abri por engano.",
                            "Meu perfil ainda mostra o nome antigo da empresa.",
                            "Meu usuário ficou suspenso depois de várias tentativas."),
                    "shipping", List.of(
                            "O pedido {order} foi enviado em {date}, mas o rastreio não atualiza desde então.",
                            "A encomenda chegou com a caixa amassada e faltando dois itens.",
                            "A transportadora deixou o pacote no endereço errado.",
                            "Posso alterar o endereço de entrega do pedido {order}?",
                            "Paguei frete expresso e a entrega levou nove dias.",
                            "Os Correios marcaram a encomenda como extraviada."),
                    "other", List.of(
                            "Temos interesse em uma parceria com vocês para o próximo semestre.",
                            "Só queria elogiar o atendimento da Marta, foi excelente.",
                            "Vocês têm escritório em {city} para uma reunião presencial?",
                            "Sou jornalista e estou escrevendo sobre pequenas lojas online.",
                            "Por favor, removam meus dados da lista de marketing.",
                            "Existe desconto para universidades e escolas?")),
            Map.of(
                    "critical", List.of(
                            "É urgente: a loja inteira está fora do ar e os clientes veem uma página em branco.",
                            "Estamos perdendo vendas a cada minuto, é uma emergência.",
                            "Parece que fomos invadidos e precisamos de ajuda agora.",
                            "Isso é crítico para a nossa operação."),
                    "high", List.of(
                            "Não consigo continuar o trabalho até isso ser resolvido.",
                            "Estamos bloqueados e precisamos disso o quanto antes.",
                            "Por favor, vejam isso imediatamente, a equipe está parada.",
                            "Desde ontem nada disso funciona e não consigo avançar."),
                    "medium", List.of(
                            "É chato, mas dá para seguir por enquanto.",
                            "Por favor, vejam quando puderem.",
                            "Seria bom resolver isso nesta semana.",
                            "Fico à disposição para mais informações."),
                    "low", List.of(
                            "Sem pressa, é só uma dúvida.",
                            "Gostaria de saber se isso é esperado.",
                            "É mais uma sugestão do que uma reclamação.",
                            "Tenho uma pergunta rápida sobre isso.")),
            List.of(
                    "Segue em anexo um print da tela.",
                    "Nossa equipe fica em {city}.",
                    "Somos clientes há cerca de {n} anos.",
                    "Meu colega {name} está em cópia.",
                    "O número de referência é {ref}.",
                    "Tentei de novo hoje de manhã, com o mesmo resultado.",
                    "Usamos o navegador Chrome no Windows 11.",
                    "Desde já agradeço a ajuda.",
                    "Se for mais fácil, podemos marcar uma ligação.",
                    "Isso começou depois da mudança anunciada na semana passada.",
                    "O mesmo aconteceu com outras duas pessoas da equipe.",
                    "Procurei na central de ajuda, mas não encontrei nada.",
                    "Nossa empresa tem cerca de {n}0 funcionários.",
                    "Por favor, respondam neste mesmo e-mail."),
            Map.of(
                    "billing", List.of("Estamos com a mensalidade em dia, caso isso importe.",
                            "Estamos com a mensalidade em dia e o último boleto já foi compensado."),
                    "technical", List.of("O site também estava um pouco lento hoje.",
                            "O site também estava um pouco lento hoje, com algum erro de vez em quando."),
                    "account", List.of("Estou escrevendo da minha conta pessoal.",
                            "Estou escrevendo da minha conta pessoal porque a conta da empresa ainda não foi criada."),
                    "shipping", List.of("Temos outra encomenda a caminho, mas essa está normal.",
                            "Temos outra encomenda a caminho e o rastreio dela está normal.")),
            List.of("Nada funciona para nenhum dos nossos clientes agora e estamos perdendo dinheiro."),
            List.of("Quando tiverem um tempinho, tudo bem."),
            List.of("Não consigo lembrar exatamente quando isso começou."),
            Map.of(
                    "billing", List.of("{iso}  fatura NF-{n5}  {amount}  em aberto", "{iso}  boleto {ref}  {amount}  compensado"),
                    "technical", List.of("{iso}T{time}Z ERROR [worker-{n}] request {ref} failed with status 502 after {ms} ms",
                            "{iso}T{time}Z WARN  [worker-{n}] retrying {ref} (attempt {n})",
                            "{iso}T{time}Z ERROR [gateway] upstream timeout on /v2/pedidos/{n5}"),
                    "account", List.of("{iso} {time}  tentativa de login a partir de 203.0.113.{n} (Chrome no Windows)",
                            "{iso} {time}  troca de senha solicitada a partir de 198.51.100.{n}"),
                    "shipping", List.of("{iso} {time}  {city}  encomenda em trânsito", "{iso} {time}  {city}  objeto saiu para entrega"),
                    "other", List.of("{iso}  pauta {n}: apresentações e objetivos para {month}",
                            "{iso}  pauta {n}: local, almoço e viagem da equipe")),
            "----- Mensagem original -----");
}
