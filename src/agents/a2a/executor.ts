/**
 * The A2A agent: answers the message's question from the named knowledge
 * base of the calling account (see message.ts for how it is named).
 *
 * - Refused requests (no knowledge base named, not the caller's, empty or
 *   over-long question, a query limit reached) get one agent Message with the
 *   reason as text and `{error:{code, message, …}}` as data. No task is made.
 * - Accepted ones run as a task: `submitted`, `working`, the answer's tokens
 *   as chunks of the artifact "answer" (streamed), then the whole artifact
 *   (text part + data part `{answer, sources, grounded, cached}`) replacing
 *   the chunks, then `completed`. Cancelling (or the client leaving a stream)
 *   stops the answer and ends the task `canceled`.
 */
import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { FastifyBaseLogger } from 'fastify';
import { isDomainError } from '../../errors.js';
import { agentAnswer, type OwnerQueries } from '../../knowledge/query/owner-query.js';
import type { Metrics } from '../../ops/metrics.js';
import { parseQuestion } from './message.js';

/** Keys of ServerCallContext.state the route fills in. */
export const stateKeys = { signal: 'groundwork.signal', requestId: 'groundwork.requestId' } as const;

const answerArtifactId = 'answer';

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
export const dataPart = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });

function agentMessage(contextId: string, taskId: string, parts: Part[]): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

export class KnowledgeAgentExecutor implements AgentExecutor {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly queries: OwnerQueries,
    private readonly log: FastifyBaseLogger,
    private readonly metrics?: Metrics,
  ) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const user = ctx.context.user;
    const refuse = (code: string, message: string, extra: Record<string, unknown> = {}) =>
      bus.publish(AgentEvent.message(agentMessage(contextId, '', [textPart(message), dataPart({ error: { code, message, ...extra } })])));
    if (!user?.isAuthenticated) return refuse('unauthorized', 'Authentication required.');

    const parsed = parseQuestion(ctx.request, ctx.userMessage);
    if (!parsed.ok) return refuse('validation_failed', parsed.reason);
    let admitted: Awaited<ReturnType<OwnerQueries['admit']>>;
    try {
      admitted = await this.queries.admit(user.userName, parsed.ragId, parsed.question);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const retryAfterMs = error.extra.retryAfterMs;
      return refuse(error.code, error.message, typeof retryAfterMs === 'number' ? { retryAfterMs } : {});
    }

    const now = () => new Date().toISOString();
    const status = (state: TaskState, message?: Message) =>
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: now() }, metadata: undefined }));
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: { ragId: admitted.kb.ragId },
      }),
    );
    status(TaskState.TASK_STATE_WORKING);

    const controller = new AbortController();
    const outer = ctx.context.state.get(stateKeys.signal) as AbortSignal | undefined;
    outer?.addEventListener('abort', () => controller.abort(), { once: true });
    this.running.set(taskId, controller);
    const requestId = (ctx.context.state.get(stateKeys.requestId) as string | undefined) ?? taskId;
    const artifact = (parts: Part[], append: boolean, lastChunk: boolean) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId: answerArtifactId, name: 'answer', description: 'The grounded answer with its sources', parts, metadata: undefined, extensions: [] },
          append,
          lastChunk,
          metadata: undefined,
        }),
      );
    try {
      let chunks = 0;
      for await (const event of this.queries.queries.answer(admitted, requestId, controller.signal)) {
        if (controller.signal.aborted) break;
        if (event.type === 'token' && event.text) artifact([textPart(event.text)], chunks++ > 0, false);
        if (event.type === 'done') {
          // append=false: the whole answer replaces the streamed chunks.
          artifact([textPart(event.answer), dataPart(agentAnswer(event))], false, true);
          this.metrics?.queries.inc({ endpoint: 'a2a', cached: String(event.cached), grounded: String(event.grounded) });
          status(TaskState.TASK_STATE_COMPLETED);
          return;
        }
      }
      status(TaskState.TASK_STATE_CANCELED, agentMessage(contextId, taskId, [textPart('The answer was cancelled.')]));
    } catch (error) {
      this.log.error({ err: error, taskId }, 'a2a answer failed');
      status(TaskState.TASK_STATE_FAILED, agentMessage(contextId, taskId, [textPart(`Something went wrong on our side (request ${requestId}).`)]));
    } finally {
      this.running.delete(taskId);
    }
  }

  async cancelTask(taskId: string, _bus: ExecutionEventBus): Promise<void> {
    // The running execute() sees the abort and publishes the canceled status on its own bus.
    this.running.get(taskId)?.abort();
  }
}
