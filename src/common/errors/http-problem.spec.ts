import { HttpProblem } from './http-problem';

describe('HttpProblem', () => {
  it('captures no stack (an answer to a client, not a fault) and leaves the stack limit as it was', () => {
    const before = Error.stackTraceLimit;
    const problem = new HttpProblem(404, 'not_found', 'No such thing.', 'Ask for another.');
    expect(problem.stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('other').stack).toMatch(/\n\s+at /);
    expect(problem).toMatchObject({ status: 404, code: 'not_found', message: 'No such thing.', name: 'HttpProblem' });
  });
});
