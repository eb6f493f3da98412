/**
 * Where the A2A request handler keeps tasks: in this process, for a while.
 * Two generations of the SDK's in-memory store (scoped by tenant and account);
 * the older is dropped when the newer is 15 minutes old or has taken 10,000
 * saves, so memory stays bounded whatever callers do. Every task here runs to
 * completion within its own request; `GetTask` afterwards is a convenience
 * that works on the same instance while the task is recent (docs/agents.md).
 */
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

export class RecentTaskStore implements TaskStore {
  private current = new InMemoryTaskStore();
  private previous = new InMemoryTaskStore();
  private saves = 0;
  private startedAt: number;

  constructor(
    private readonly maxSaves = 10_000,
    private readonly maxAgeMs = 15 * 60_000,
    private readonly clock: () => number = Date.now,
  ) {
    this.startedAt = clock();
  }

  private rotateIfDue(): void {
    if (this.saves < this.maxSaves && this.clock() - this.startedAt < this.maxAgeMs) return;
    this.previous = this.current;
    this.current = new InMemoryTaskStore();
    this.saves = 0;
    this.startedAt = this.clock();
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    this.rotateIfDue();
    this.saves++;
    await this.current.save(task, context);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    this.rotateIfDue();
    return (await this.current.load(taskId, context)) ?? (await this.previous.load(taskId, context));
  }

  /** The newer generation's tasks (the last 0–15 minutes). */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    this.rotateIfDue();
    return this.current.list(params, context);
  }
}
