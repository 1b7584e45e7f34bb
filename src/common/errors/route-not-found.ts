import { NotFoundException } from '@nestjs/common';

/** The same answer as for a path no route matches. */
export const routeNotFoundError = () => new NotFoundException();
