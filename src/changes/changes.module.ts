import { Module } from '@nestjs/common';
import { ChangesController } from './changes.controller.js';
import { ChangesService } from './changes.service.js';

/** The change feed: every dataset release with what it changed, as JSON and Atom. */
@Module({ controllers: [ChangesController], providers: [ChangesService], exports: [ChangesService] })
export class ChangesModule {}
